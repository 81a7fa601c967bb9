// The ProjectsPort over gRPC: the projects service's GetProject, called with the caller's context
// so projects applies its own tenant rule (another tenant's project is not_found).
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
      await callUnary(client, 'getProject', { id: projectId }, ctx);
    },
    close: () => client.close(),
  };
}
