// Host services the containers reach on the bridge's address: Redis and the S3 server listen on
// 127.0.0.1 only (the machine's Redis was started that way, and nothing else should reach them), so
// the supervisor listens on <bridge address>:<port> and pipes each connection to the loopback
// listener, as a Service without a selector points at endpoints outside the cluster. Kafka needs
// no forwarder: its clients dial the addresses the broker advertises, so the broker gets a
// listener of its own on the bridge (scripts/kafka/broker.mjs `containerListener`).
import { connect, createServer } from 'node:net';

/**
 * Listens on host:port and forwards every connection to target; resolves with the server once it
 * listens. A connection whose target refuses is closed, as a dead endpoint would close it.
 * @param {{ host: string, port: number, target: { host: string, port: number } }} options
 */
export function forwardTcp({ host, port, target }) {
  const sockets = new Set();
  const server = createServer((inbound) => {
    const outbound = connect(target);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      // Either side's error ends both: the peer sees the connection drop, never a hang.
      socket.once('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve({
        server,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
