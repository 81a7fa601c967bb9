// The projects service's client face: the port other services ask projects through, and its gRPC
// adapter. Importing it loads no part of the projects server.
export type { ProjectContentCounts, ProjectsPort } from './projects.port.ts';
export { connectGrpcProjects, type GrpcProjects } from './projects.grpc.ts';
