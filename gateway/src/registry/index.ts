// The endpoint registry: every endpoint of /api/v1, declared once. Add a group by writing a
// `<group>.endpoints.ts` file and listing it here (docs/adding-an-endpoint.md).
import { auditEndpoints } from './audit.endpoints.js';
import { bookingEndpoints } from './bookings.endpoints.js';
import { customerEndpoints } from './customers.endpoints.js';
import { dealEndpoints } from './deals.endpoints.js';
import { introspectionEndpoints, type IntrospectionDeps } from './introspection.endpoints.js';
import { leadEndpoints } from './leads.endpoints.js';
import { projectEndpoints } from './projects.endpoints.js';
import { recordEndpoints } from './records.endpoints.js';
import { clientPageEndpoints } from './client-pages.endpoints.js';
import { planningEndpoints } from './planning.endpoints.js';
import { proposalEndpoints } from './proposals.endpoints.js';
import { invoiceEndpoints } from './invoices.endpoints.js';
import { captureEndpoints } from './capture.endpoints.js';
import { designEndpoints } from './designs.endpoints.js';
import { measurementEndpoints } from './measurements.endpoints.js';
import { webhookEndpoints } from './webhooks.endpoints.js';
import { exportEndpoints } from './exports.endpoints.js';
import { reportEndpoints } from './reports.endpoints.js';
import { syncEndpoints, type SyncDeps } from './sync.endpoints.js';
import type { EndpointDef } from './types.js';

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
