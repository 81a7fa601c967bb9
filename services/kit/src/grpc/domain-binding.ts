// Domain services write their RPC handlers as plain `(request, ctx) => Promise<response>`
// functions (tests call them directly); this binds such an object to a generated definition.
import type { ServiceDefinition } from '@grpc/grpc-js';
import type { RequestContext } from '../context.js';
import type { GrpcServiceBinding, UnaryHandler } from './server.js';

type Rpc = {
  requestDeserialize: (bytes: Buffer) => unknown;
  responseDeserialize: (bytes: Buffer) => unknown;
};

/** One handler per RPC of `D`, typed from the generated definition. */
export type DomainHandlers<D extends ServiceDefinition> = {
  [K in keyof D]: D[K] extends Rpc
    ? (
        request: ReturnType<D[K]['requestDeserialize']>,
        ctx: RequestContext,
      ) => Promise<ReturnType<D[K]['responseDeserialize']>>
    : never;
};

export function bindDomain<D extends ServiceDefinition>(
  definition: D,
  handlers: DomainHandlers<D>,
): GrpcServiceBinding {
  const entries = Object.entries(
    handlers as Record<string, (request: never, ctx: RequestContext) => Promise<unknown>>,
  );
  const wrapped: Record<string, UnaryHandler> = Object.fromEntries(
    entries.map(([name, handle]) => [name, (request: never, call) => handle(request, call.ctx)]),
  );
  return { definition, handlers: wrapped };
}
