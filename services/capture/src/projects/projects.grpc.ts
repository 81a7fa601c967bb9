// The ProjectsPort over gRPC: projects' ProjectService, called with the caller's request context.
import { callUnary, connectClient, type ConnectOptions } from '@fieldops/kit/grpc';
import { projects } from '@fieldops/proto';
import type { ProjectsPort } from './projects.port.js';

export interface GrpcProjects extends ProjectsPort {
  close(): void;
}

export function connectGrpcProjects(address: string, options: ConnectOptions = {}): GrpcProjects {
  const client = connectClient(projects.ProjectServiceClient, address, options);
  return {
    async requireProject(projectId, ctx) {
      // A dry run or a replayed key must not change how the project is read.
      await callUnary(client, 'getProject', { id: projectId }, { ...ctx, dryRun: false, idempotencyKey: '' });
    },
    async reportContent(projectId, content, ctx) {
      // Its own write in projects: the caller's key and dry run belong to the capture write.
      await callUnary(
        client,
        'reportProjectContent',
        { id: projectId, ...content },
        { ...ctx, dryRun: false, idempotencyKey: '' },
      );
    },
    close: () => client.close(),
  };
}
