// What other services ask of the projects service about a project they hang their records on
// (capture sessions, designs, quantities, takeoffs): that it exists for the caller, and, from
// capture, what content it holds. They depend on this port, never on projects' collections;
// projects.grpc.ts is its one adapter, and tests pass an in-memory one.
import type { RequestContext } from '@fieldops/kit';

export interface ProjectsPort {
  /** Resolves when the project exists for the caller (tenant and scope); rejects with not_found otherwise. */
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
