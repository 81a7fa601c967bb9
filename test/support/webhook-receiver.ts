// A real HTTP receiver for webhook deliveries (node:http on 127.0.0.1), whose answer per path
// the test scripts: fail, then recover; 410; 429 with Retry-After; slow. It records every request
// as it arrived so tests can check signatures, ids and timing.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
  /** The status the receiver answered. */
  answered: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
  /** The answer waits for this too: a test holds a delivery open until it says so (no timing). */
  hold?: Promise<void>;
}

/** The answer to the n-th request (1-based) on a path. */
export type Script = (n: number) => Answer;

export interface WebhookReceiver {
  url(path: string): string;
  script(path: string, script: Script): void;
  received(path: string): Received[];
  close(): Promise<void>;
}

const flat = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  );

export async function startReceiver(): Promise<WebhookReceiver> {
  const scripts = new Map<string, Script>();
  const log: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const n = log.filter((entry) => entry.path === path).length + 1;
      const answer: Answer = (scripts.get(path) ?? (() => ({ status: 200 })))(n);
      log.push({
        path,
        headers: flat(req.headers),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        answered: answer.status,
      });
      void Promise.resolve(answer.hold).then(() =>
        setTimeout(() => {
          res.writeHead(answer.status, answer.headers ?? {});
          res.end();
        }, answer.delayMs ?? 0),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    script: (path, script) => scripts.set(path, script),
    received: (path) => log.filter((entry) => entry.path === path),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
