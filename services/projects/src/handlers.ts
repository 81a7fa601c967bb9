// The ProjectService (and ProjectRecordService) RPCs as plain async functions of (request, ctx),
// derived from the service modules (handlersOf: each RPC is the exported function of its name).
// The gRPC binding is one line per service (server.ts); tests call the same functions directly.
import { handlersOf, type DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { projects } from '@fieldops/proto';
import type { CrmPort } from './crm/crm.port.ts';
import * as clientPages from './client-pages/client-pages.service.ts';
import type { ClientPageDeps } from './client-pages/client-pages.service.ts';
import { openPageKeyring } from './client-pages/page-keys.ts';
import { DEFAULT_PAGE_LINK_TTL_MS } from './client-pages/page-links.ts';
import * as projectsService from './projects/projects.service.ts';
import * as records from './records/records.service.ts';

/** One handler per ProjectService RPC, typed from the generated service definition. */
export type ProjectHandlers = DomainHandlers<projects.ProjectServiceService>;

/** What the handlers need besides the store. */
export interface ProjectsDeps {
  /** crm: the customer's canonical name and the deal a project opens. */
  crm: CrmPort;
}

export function createProjectHandlers(store: DocumentStore, deps: ProjectsDeps): ProjectHandlers {
  return handlersOf(projects.ProjectServiceService, store, projectsService, {
    createProject: (request, ctx) => projectsService.createProject(store, deps.crm, request, ctx),
  });
}

/** One handler per ProjectRecordService RPC (project records, served beside ProjectService). */
export type RecordHandlers = DomainHandlers<projects.ProjectRecordServiceService>;

export function createRecordHandlers(store: DocumentStore): RecordHandlers {
  return handlersOf(projects.ProjectRecordServiceService, store, records);
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
  return handlersOf(projects.ClientPageServiceService, deps, clientPages);
}
