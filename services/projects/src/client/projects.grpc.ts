// The ProjectsPort over gRPC, the one adapter capture and measurements both use: projects'
// ProjectService, called with the caller's context so projects applies its own tenant and scope
// rules (another tenant's project is not_found). Each call is projects' own operation, so the
// caller's dry run and idempotency key are left out: a dry run or a replayed key must not change
// how the project is read, and a content report is a write of projects that the caller's key
// (which names the caller's write) must not replay or collide with (docs/decisions.md).
import type { RequestContext } from '@fieldops/kit';
import { callUnary, connectClient, type ConnectOptions } from '@fieldops/kit/grpc';
import { projects } from '@fieldops/proto';
import type { ProjectsPort } from './projects.port.ts';

export interface GrpcProjects extends ProjectsPort {
  close(): void;
}

/** The caller's context for a call that is projects' own operation, not part of the caller's write. */
const ownOperation = (ctx: RequestContext): RequestContext => ({ ...ctx, dryRun: false, idempotencyKey: '' });

export function connectGrpcProjects(address: string, options: ConnectOptions = {}): GrpcProjects {
  const client = connectClient(projects.ProjectServiceClient, address, options);
  return {
    async requireProject(projectId, ctx) {
      await callUnary(client, 'getProject', { id: projectId }, ownOperation(ctx));
    },
    async reportContent(projectId, content, ctx) {
      await callUnary(client, 'reportProjectContent', { id: projectId, ...content }, ownOperation(ctx));
    },
    close: () => client.close(),
  };
}
