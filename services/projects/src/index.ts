// The projects domain: its collections and its RPC handlers, opened on the store it owns.
import type { DocumentStore } from '@fieldops/kit/store';
import { defineProjectsCollections } from './collections.js';
import { createProjectHandlers, type ProjectHandlers, type ProjectsDeps } from './handlers.js';

export async function openProjectsDomain({
  store,
  ...deps
}: { store: DocumentStore } & ProjectsDeps): Promise<ProjectHandlers> {
  await defineProjectsCollections(store);
  return createProjectHandlers(store, deps);
}

export { createProjectHandlers } from './handlers.js';
export type { ProjectHandlers, ProjectsDeps } from './handlers.js';
export { createRecordHandlers, openClientPageHandlers } from './handlers.js';
export type { ClientPageHandlers, ClientPageOptions, RecordHandlers } from './handlers.js';
export { PROJECTS_COLLECTIONS, defineProjectsCollections } from './collections.js';
export type { CrmPort } from './crm/crm.port.js';
export { connectGrpcCrm } from './customers/crm.grpc.js';
