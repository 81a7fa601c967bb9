// Domain services write their RPC handlers as plain `(request, ctx) => Promise<response>`
// functions (tests call them directly); this binds such an object to a generated definition.
// handlersOf derives that object from the service's modules instead of a hand-kept map: each RPC
// of the generated definition is served by the exported service function of the same name, given
// the service's deps, so a new RPC needs only its function (a missing one fails the type check,
// and the start).
import type { ServiceDefinition } from '@grpc/grpc-js';
import type { RequestContext } from '../context.ts';
import type { GrpcServiceBinding, UnaryHandler } from './server.ts';

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

/** One service function per RPC of `D`: `(deps, request, ctx)`, named as the RPC. */
export type DomainFunctions<D extends ServiceDefinition, Deps> = {
  [K in keyof D]: D[K] extends Rpc
    ? (
        deps: Deps,
        request: ReturnType<D[K]['requestDeserialize']>,
        ctx: RequestContext,
      ) => Promise<ReturnType<D[K]['responseDeserialize']>>
    : never;
};

/**
 * The handlers of `definition`, derived: each RPC calls the function of its name in `modules`
 * (service modules spread together, `{ ...sessions, ...runs }`) with `deps`. `special` serves the
 * RPCs whose function needs more than `deps`, and only those need not be in `modules`.
 */
export function handlersOf<D extends ServiceDefinition, Deps, K extends keyof D = never>(
  definition: D,
  deps: Deps,
  modules: NoInfer<Pick<DomainFunctions<D, Deps>, Exclude<keyof D, K>>>,
  special?: Pick<DomainHandlers<D>, K>,
): DomainHandlers<D> {
  const functions = modules as Record<string, unknown>;
  const served = (special ?? {}) as Record<string, unknown>;
  const handlers = Object.fromEntries(
    Object.entries(definition).map(([name, method]) => {
      if (typeof served[name] === 'function') return [name, served[name]];
      const handle = functions[name];
      if (typeof handle !== 'function') {
        throw new Error(
          `${method.path} has no handler: export a function named ${name} from a module the service's handlers read.`,
        );
      }
      return [name, (request: unknown, ctx: RequestContext) => handle(deps, request, ctx)];
    }),
  );
  return handlers as DomainHandlers<D>;
}
