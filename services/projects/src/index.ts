// The projects domain: its collections and its RPC handlers, opened on the store it owns.
import type { DocumentStore } from '@fieldops/kit/store';
import { defineProjectsCollections } from './collections.ts';
import { createProjectHandlers, type ProjectHandlers, type ProjectsDeps } from './handlers.ts';

export async function openProjectsDomain({
  store,
  ...deps
}: { store: DocumentStore } & ProjectsDeps): Promise<ProjectHandlers> {
  await defineProjectsCollections(store);
  return createProjectHandlers(store, deps);
}

export { createProjectHandlers } from './handlers.ts';
export type { ProjectHandlers, ProjectsDeps } from './handlers.ts';
export { createRecordHandlers, openClientPageHandlers } from './handlers.ts';
export type { ClientPageHandlers, ClientPageOptions, RecordHandlers } from './handlers.ts';
export { PROJECTS_COLLECTIONS, defineProjectsCollections } from './collections.ts';
export type { CrmPort } from './crm/crm.port.ts';
export { connectGrpcCrm } from './customers/crm.grpc.ts';
