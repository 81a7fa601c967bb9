// The PlanningService RPCs as plain async functions of (request, ctx), bound beside ProjectService
// in server.ts; tests call the same functions directly. Derived (handlersOf): each RPC is the
// function of its name in the service modules, given the store; the RPCs that need the geocoder or
// no store at all (the template catalogue) are the special handlers.
import { handlersOf, type DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { planning } from '@fieldops/proto';
import { getCompliance } from './compliance/compliance.service.ts';
import * as day from './day/day.service.ts';
import * as sitePreparation from './day/site-preparation.ts';
import { geocode } from './geocoding/geocode.service.ts';
import { geocoderFromEnv } from './geocoding/geocoder.config.ts';
import type { Geocoder } from './geocoding/geocoder.port.ts';
import * as permits from './permits/permits.service.ts';
import { definePlanningCollections } from './planning.collections.ts';
import * as schedule from './project-schedule/schedule.service.ts';
import * as tasks from './tasks/tasks.service.ts';
import { getTemplate, listTemplates, type Template } from './templates/templates.ts';

export type PlanningHandlers = DomainHandlers<planning.PlanningServiceService>;

export interface PlanningDeps {
  /** Default: FIELDOPS_GEOCODER (the offline gazetteer unless configured). */
  geocoder?: Geocoder;
}

const templateView = (template: Template): planning.Template => ({ ...template, tasks: template.tasks });

export function createPlanningHandlers(store: DocumentStore, deps: PlanningDeps = {}): PlanningHandlers {
  const geocoder = deps.geocoder ?? geocoderFromEnv();
  return handlersOf(
    planning.PlanningServiceService,
    store,
    { ...schedule, ...permits, ...tasks, ...day, ...sitePreparation },
    {
      listTemplates: async (request) => ({ items: listTemplates(request.vertical).map(templateView) }),
      getTemplate: async (request) => templateView(getTemplate(request.id)),
      getCompliance: (request, ctx) => getCompliance(store, geocoder, request, ctx),
      geocode: (request) => geocode(geocoder, request),
    },
  );
}

/** Defines the planning collections and returns the handlers. */
export async function openPlanningDomain(
  store: DocumentStore,
  deps: PlanningDeps = {},
): Promise<PlanningHandlers> {
  await definePlanningCollections(store);
  return createPlanningHandlers(store, deps);
}
