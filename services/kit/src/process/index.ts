// @fieldops/kit/process: running a service as a process: start, shutdown order, private files.
export {
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  makePrivateDir,
  makePrivateDirSync,
  tightenTree,
  tightenTreeSync,
} from '../files/private-files.js';
export { EXIT_CONFIG, runServiceProcess } from './service-process.js';
export { describeOwnGrants, logPermissionDenials, permissionMode } from '../files/permission-denials.js';
export type { ServiceStartOptions } from './service-start.js';
export { openRelayedStore } from './relayed-store.js';
export { ShutdownStack } from './shutdown-stack.js';
