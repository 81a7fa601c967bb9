// What measurements asks of the projects service: does this project exist in the caller's
// tenant (and scope)? Quantities and takeoffs hang off a project measurements does not own. The
// port and its one gRPC adapter are the projects package's client face.
import type { ProjectsPort as Projects } from '@fieldops/projects/client';

export type ProjectsPort = Pick<Projects, 'requireProject'>;
