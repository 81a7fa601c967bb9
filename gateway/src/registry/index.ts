// The endpoint registry: every endpoint of /api/v1, declared once, in registry order. Each group is
// a folder holding one file per path, named after it (`POST /deals/:id/advance` is declared in
// `deals/deals.id.advance.ts`), its shared schemas (`<group>.schemas.ts`) and its order (`index.ts`).
// Introspection and sync read the registry itself, so they stay functions here
// (docs/adding-an-endpoint.md).
import { auditEndpoints } from './audit/index.js';
import { bookingEndpoints } from './bookings/index.js';
import { customerEndpoints } from './customers/index.js';
import { dealEndpoints } from './deals/index.js';
import { introspectionEndpoints, type IntrospectionDeps } from './introspection.endpoints.js';
import { leadEndpoints } from './leads/index.js';
import { projectEndpoints } from './projects/index.js';
import { recordEndpoints } from './records/index.js';
import { clientPageEndpoints } from './client-pages/index.js';
import { planningEndpoints } from './planning/index.js';
import { proposalEndpoints } from './proposals/index.js';
import { invoiceEndpoints } from './invoices/index.js';
import { captureEndpoints } from './capture/index.js';
import { designEndpoints } from './designs/index.js';
import { measurementEndpoints } from './measurements/index.js';
import { webhookEndpoints } from './webhooks/index.js';
import { exportEndpoints } from './exports/index.js';
import { reportEndpoints } from './reports/index.js';
import { syncEndpoints, type SyncDeps } from './sync.endpoints.js';
import type { EndpointDef } from '../endpoint/types.js';

export function buildRegistry(deps: IntrospectionDeps & SyncDeps): readonly EndpointDef[] {
  const registry: EndpointDef[] = [];
  registry.push(
    ...leadEndpoints,
    ...customerEndpoints,
    ...dealEndpoints,
    ...bookingEndpoints,
    ...proposalEndpoints,
    ...invoiceEndpoints,
    ...projectEndpoints,
    ...recordEndpoints,
    ...clientPageEndpoints,
    ...planningEndpoints,
    ...captureEndpoints,
    ...designEndpoints,
    ...measurementEndpoints,
    ...webhookEndpoints,
    ...exportEndpoints,
    ...reportEndpoints,
    ...auditEndpoints,
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
