// What measurements asks of the projects service: does this project exist in the caller's
// tenant (and scope)? Quantities and takeoffs hang off a project measurements does not own.
import type { RequestContext } from '@fieldops/kit';

export interface ProjectsPort {
  /** Resolves when the project exists for the caller; rejects with not_found otherwise. */
  requireProject(projectId: string, ctx: RequestContext): Promise<void>;
}
