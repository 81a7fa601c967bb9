// What the measurements service functions need, as one object: every RPC's function takes it
// first, so the handler map is derived from the modules (handlers.ts) rather than kept by hand.
import type { RequestContext } from '@fieldops/kit';
import type { BlobStore } from '@fieldops/kit/blobs';
import type { DocumentStore } from '@fieldops/kit/store';
import { requireTenantId } from '@fieldops/kit/write';
import type { ProjectsPort } from './projects/projects.port.ts';

export interface MeasurementDeps {
  store: DocumentStore;
  projects: ProjectsPort;
  /** The blob store holds the capture files MeasureCapture reads; without one that RPC is unavailable. */
  blobs?: BlobStore;
}

/** The caller's tenant, once projects has said the caller may see `projectId` (not_found otherwise). */
export async function projectTenant(
  { projects }: MeasurementDeps,
  projectId: string,
  ctx: RequestContext,
): Promise<string> {
  const tenantId = requireTenantId(ctx);
  await projects.requireProject(projectId, ctx);
  return tenantId;
}
