// Finds the address of the crm gRPC server that startPlatform started in this process.
// RunningPlatform does not expose its services' addresses, so this asks grpc-js's channelz registry
// (public API, on by default) for every gRPC listener in the process, and keeps the one that
// answers CrmService/listLeads: audit answers UNIMPLEMENTED.
import { getChannelzHandlers } from '@grpc/grpc-js';
import { callUnary, connectClient } from '@fieldops/kit/grpc/client';
import type { RequestContext } from '@fieldops/kit/context';
import { crm } from '@fieldops/proto';

type GetServers = ReturnType<typeof getChannelzHandlers>['GetServers'];
type GetServersCall = Parameters<GetServers>[0];
type GetServersReply = Parameters<Parameters<GetServers>[1]>[1];

/** host:port of every gRPC server listening in this process, oldest server first. */
function grpcListeners(): Promise<string[]> {
  // The handler only reads `call.request`; it is called in-process, so no channelz server is needed.
  const call = { request: { start_server_id: '0', max_results: '100' } } as unknown as GetServersCall;
  return new Promise((resolve, reject) => {
    getChannelzHandlers().GetServers(call, (error, reply: GetServersReply) => {
      if (error) {
        reject(new Error(`channelz GetServers failed: ${error.details ?? 'no details'}`));
        return;
      }
      const names = (reply?.server ?? []).flatMap((server) =>
        (server.listen_socket ?? []).map((socket) => socket.name ?? ''),
      );
      resolve(names.filter((name) => /:\d+$/.test(name)));
    });
  });
}

/** The address whose server answers listLeads for `ctx`'s tenant. */
export async function findCrmAddress(ctx: RequestContext): Promise<string> {
  const candidates = await grpcListeners();
  for (const address of candidates) {
    const client = connectClient(crm.CrmServiceClient, address, { deadlineMs: 2000 });
    try {
      await callUnary(client, 'listLeads', { page: { cursor: '', limit: 1 } }, ctx);
      return address;
    } catch {
      // Not crm (audit answers UNIMPLEMENTED); try the next listener.
    } finally {
      client.close();
    }
  }
  throw new Error(`no gRPC listener in this process answers CrmService/listLeads (${candidates.join(', ')})`);
}
