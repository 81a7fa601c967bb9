// What listEndpoint() and readEndpoint() share: the words of a GET of one kind that one service
// answers, and the call of the RPC it names. The RPC's name is checked against the client's
// methods where it is declared; its request is built from the declaration (the path's ids, the
// list's filters), so the call takes it as the object it is.
import type { RequestContext } from '@fieldops/kit';
import { callUnary } from '@fieldops/kit/grpc';
import type { ServiceClients } from '../clients.ts';
import type { Kind } from '../identity/scopes.ts';

/** A GET of one kind answered by one service: each declaring file writes its path literally. */
export interface ServiceRead<S extends keyof ServiceClients> {
  path: string;
  tag: string;
  summary: string;
  description?: string;
  kind: Kind;
  service: S;
}

/** Calls `rpc` of the service's client with a request built from the declaration. */
export function callServiceRpc(
  clients: ServiceClients,
  service: keyof ServiceClients,
  rpc: string,
  request: object,
  ctx: RequestContext,
): Promise<never> {
  const call = callUnary as (client: unknown, name: string, req: object, c: RequestContext) => Promise<never>;
  return call(clients[service], rpc, request, ctx);
}

/** What every such GET declares: a read, under the read scope of its kind. */
export const readOf = (kind: Kind) => ({
  method: 'GET' as const,
  auth: 'scope' as const,
  scope: { action: 'read' as const, kind },
});
