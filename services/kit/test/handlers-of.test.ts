// handlersOf derives a service's handler map from its modules: each RPC of the generated
// definition is the function of its name, given the service's deps; an RPC a module does not
// serve stops the start with its path named, so a forgotten handler never reaches a caller.
import { describe, expect, it } from '@jest/globals';
import { handlersOf } from '../src/grpc/domain-binding.ts';
import type { RequestContext } from '../src/context.ts';
import { measurements } from '@fieldops/proto';

const definition = measurements.MeasurementServiceService;
const ctx = { requestId: 'req_1' } as RequestContext;
type Deps = { tag: string };
const served = (tag: string) => async (deps: Deps, request: unknown) => ({ tag, deps, request }) as never;
const everyRpc = (): Record<string, ReturnType<typeof served>> =>
  Object.fromEntries(Object.keys(definition).map((name) => [name, served(name)]));

describe('handlersOf', () => {
  it('serves every RPC with the function of its name, given the deps', async () => {
    const handlers = handlersOf(definition, { tag: 'deps' }, everyRpc() as never);
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(definition).sort());
    await expect(handlers.getTakeoff({ id: 'tko_1' } as never, ctx)).resolves.toEqual({
      tag: 'getTakeoff',
      deps: { tag: 'deps' },
      request: { id: 'tko_1' },
    });
  });

  it('lets a special handler serve an RPC whose function needs more than the deps', async () => {
    const { getTakeoff: _omitted, ...rest } = everyRpc();
    const handlers = handlersOf(definition, { tag: 'deps' }, rest as never, {
      getTakeoff: async () => ({ special: true }) as never,
    });
    await expect(handlers.getTakeoff({} as never, ctx)).resolves.toEqual({ special: true });
  });

  it('refuses to start when an RPC has no function, naming its path', () => {
    const { getTakeoff: _omitted, ...rest } = everyRpc();
    expect(() => handlersOf(definition, { tag: 'deps' }, rest as never)).toThrow(
      /\/GetTakeoff has no handler: export a function named getTakeoff/,
    );
  });
});
