// Capture tells projects what the project holds: its designs, and its deliverables. A deliverable
// is a scene reconstruction produced; it is packaged once its artifacts are stored, and the worker
// commits a scene only with its stored artifacts (runs/run-lease.ts), so every scene is a
// packaged deliverable. Reported after a design write and after a scene is ready
// (projects/scene-content.projection.ts). Counts are absolute: any later report corrects an
// earlier one that failed.
import type { RequestContext } from '@fieldops/kit';
import { requireTenantId } from '@fieldops/kit/write';
import { DESIGNS, SCENES } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';

export async function reportProjectContent(
  deps: Pick<CaptureDeps, 'store' | 'projects'>,
  projectId: string,
  ctx: RequestContext,
): Promise<void> {
  const tenantId = requireTenantId(ctx);
  const [designs, scenes] = await Promise.all([
    deps.store.count(DESIGNS, tenantId, { projectId }),
    deps.store.count(SCENES, tenantId, { projectId }),
  ]);
  await deps.projects.reportContent(
    projectId,
    { designs, deliverables: scenes, packagedDeliverables: scenes },
    ctx,
  );
}
