// What capture asks of the projects service: that the project exists for the caller (a capture
// belongs to a project). The gRPC adapter (projects.grpc.ts) calls with the caller's context, so
// projects applies its own tenant rules; capture never reads projects' collections.
import type { RequestContext } from '@fieldops/kit';

export interface ProjectsPort {
  /** Resolves when the project exists in the tenant; rejects with not_found otherwise. */
  requireProject(projectId: string, ctx: RequestContext): Promise<void>;
  /**
   * Tells projects what the project holds (absolute counts, so a repeated report changes nothing):
   * its vertical lock and plan-set readiness read them.
   */
  reportContent(projectId: string, content: ProjectContentCounts, ctx: RequestContext): Promise<void>;
}

export interface ProjectContentCounts {
  designs: number;
  deliverables: number;
  packagedDeliverables: number;
}
