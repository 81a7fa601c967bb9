// The endpoint registry: every endpoint of /api/v1, declared once. Add a group by writing a
// `<group>.endpoints.ts` file and listing it here (docs/adding-an-endpoint.md).
import { auditEndpoints } from './audit.endpoints.js';
import { customerEndpoints } from './customers.endpoints.js';
import { introspectionEndpoints, type IntrospectionDeps } from './introspection.endpoints.js';
import { leadEndpoints } from './leads.endpoints.js';
import type { EndpointDef } from './types.js';

export function buildRegistry(deps: IntrospectionDeps): readonly EndpointDef[] {
  const registry: EndpointDef[] = [];
  registry.push(
    ...leadEndpoints,
    ...customerEndpoints,
    ...auditEndpoints,
    ...introspectionEndpoints(() => registry, deps),
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
