// The endpoint registry: every endpoint of /api/v1, declared once. Each family is a folder holding
// one file per path, named after it (`POST /deals/:id/advance` is declared in
// `deals/deals.id.advance.ts`), and its shared schemas (`<family>.schemas.ts`). No list is kept by
// hand: `npm run gen` finds every family's endpoints into families.gen.ts (scripts/gen-registry.ts).
// Introspection and sync read the registry itself, so they stay functions here and come last
// (docs/adding-an-endpoint.md).
import type { EndpointDef } from '../endpoint/types.ts';
import { FAMILY_ENDPOINTS } from './families.gen.ts';
import { introspectionEndpoints, type IntrospectionDeps } from './introspection.endpoints.ts';
import { syncEndpoints, type SyncDeps } from './sync.endpoints.ts';

export function buildRegistry(deps: IntrospectionDeps & SyncDeps): readonly EndpointDef[] {
  const registry: EndpointDef[] = [];
  registry.push(
    ...FAMILY_ENDPOINTS,
    ...introspectionEndpoints(() => registry, deps),
    ...syncEndpoints(() => registry, deps),
  );
  assertUnique(registry);
  return registry;
}

function assertUnique(registry: readonly EndpointDef[]): void {
  const seen = new Set<string>();
  for (const endpoint of registry) {
    for (const key of [endpoint.operationId, `${endpoint.method} ${endpoint.path}`]) {
      if (seen.has(key)) throw new Error(`The registry declares ${key} twice.`);
      seen.add(key);
    }
  }
}
