// @fieldops/kit/process: running a service as a process: start, shutdown order, private files.
export {
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  makePrivateDir,
  makePrivateDirSync,
  tightenTree,
  tightenTreeSync,
} from '../files/private-files.ts';
export { EXIT_CONFIG, runServiceProcess } from './service-process.ts';
export { describeOwnGrants, logPermissionDenials, permissionMode } from '../files/permission-denials.ts';
export type { ServiceStartOptions } from './service-start.ts';
export { openRelayedStore } from './relayed-store.ts';
export { ShutdownStack } from './shutdown-stack.ts';
