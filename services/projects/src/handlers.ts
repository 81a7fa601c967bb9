// The ProjectService (and ProjectRecordService) RPCs as plain async functions of (request, ctx).
// The gRPC binding is one line per service (server.ts); tests call the same functions directly.
import type { DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import type { projects } from '@fieldops/proto';
import type { CrmPort } from './crm/crm.port.js';
import { listClientPages, openClientPage, type ClientPageDeps } from './client-pages/client-pages.service.js';
import { openPageKeyring } from './client-pages/page-keys.js';
import { DEFAULT_PAGE_LINK_TTL_MS } from './client-pages/page-links.js';
import {
  createProject,
  fireLifecycleTrigger,
  getProject,
  listProjects,
  reportProjectContent,
  updateProject,
} from './projects/projects.service.js';
import {
  createRecord,
  getRecord,
  importRecord,
  listRecords,
  moveRecordStatus,
  unvoidRecord,
  updateRecord,
  voidRecord,
} from './records/records.service.js';

/** One handler per ProjectService RPC, typed from the generated service definition. */
export type ProjectHandlers = DomainHandlers<projects.ProjectServiceService>;

/** What the handlers need besides the store. */
export interface ProjectsDeps {
  /** crm: the customer's canonical name and the deal a project opens. */
  crm: CrmPort;
}

export function createProjectHandlers(store: DocumentStore, deps: ProjectsDeps): ProjectHandlers {
  return {
    listProjects: (request, ctx) => listProjects(store, request, ctx),
    getProject: (request, ctx) => getProject(store, request, ctx),
    createProject: (request, ctx) => createProject(store, deps.crm, request, ctx),
    updateProject: (request, ctx) => updateProject(store, request, ctx),
    fireLifecycleTrigger: (request, ctx) => fireLifecycleTrigger(store, request, ctx),
    reportProjectContent: (request, ctx) => reportProjectContent(store, request, ctx),
  };
}

/** One handler per ProjectRecordService RPC (project records, served beside ProjectService). */
export type RecordHandlers = DomainHandlers<projects.ProjectRecordServiceService>;

export function createRecordHandlers(store: DocumentStore): RecordHandlers {
  return {
    listRecords: (request, ctx) => listRecords(store, request, ctx),
    getRecord: (request, ctx) => getRecord(store, request, ctx),
    createRecord: (request, ctx) => createRecord(store, request, ctx),
    importRecord: (request, ctx) => importRecord(store, request, ctx),
    updateRecord: (request, ctx) => updateRecord(store, request, ctx),
    voidRecord: (request, ctx) => voidRecord(store, request, ctx),
    unvoidRecord: (request, ctx) => unvoidRecord(store, request, ctx),
    moveRecordStatus: (request, ctx) => moveRecordStatus(store, request, ctx),
  };
}

/** One handler per ClientPageService RPC (client pages, served beside ProjectService). */
export type ClientPageHandlers = DomainHandlers<projects.ClientPageServiceService>;

export interface ClientPageOptions {
  /** How long a minted link opens its page; default DEFAULT_PAGE_LINK_TTL_MS. */
  linkTtlMs?: number;
  /** The clock links are minted and checked by (tests move it). */
  now?: () => number;
}

export async function openClientPageHandlers(
  store: DocumentStore,
  crm: CrmPort,
  options: ClientPageOptions = {},
): Promise<ClientPageHandlers> {
  const deps: ClientPageDeps = {
    store,
    crm,
    keys: await openPageKeyring(store),
    ttlMs: options.linkTtlMs ?? DEFAULT_PAGE_LINK_TTL_MS,
    now: options.now ?? Date.now,
  };
  return {
    listClientPages: (request, ctx) => listClientPages(deps, request, ctx),
    openClientPage: (request, ctx) => openClientPage(deps, request, ctx),
  };
}
