// After a design write, capture tells projects what the project holds: its designs, and its
// deliverables (the scenes reconstruction produced). Capture packages nothing, so it reports no
// packaged deliverable. Counts are absolute: any later report corrects an earlier one that failed.
import type { RequestContext } from '@fieldops/kit/context';
import { requireTenantId } from '@fieldops/kit/write/index';
import { DESIGNS, SCENES } from '../collections.js';
import type { CaptureDeps } from '../deps.js';

export async function reportProjectContent(
  deps: CaptureDeps,
  projectId: string,
  ctx: RequestContext,
): Promise<void> {
  const tenantId = requireTenantId(ctx);
  const [designs, deliverables] = await Promise.all([
    deps.store.count(DESIGNS, tenantId, { projectId }),
    deps.store.count(SCENES, tenantId, { projectId }),
  ]);
  await deps.projects.reportContent(projectId, { designs, deliverables, packagedDeliverables: 0 }, ctx);
}
