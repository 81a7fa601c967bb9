// The PlanningService RPCs as plain async functions of (request, ctx), bound beside ProjectService
// in server.ts; tests call the same functions directly.
import type { DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import type { planning } from '@fieldops/proto';
import { getCompliance } from './compliance/compliance.service.js';
import { getDay } from './day/day.service.js';
import { reportSitePreparation } from './day/site-preparation.js';
import { geocode } from './geocoding/geocode.service.js';
import { geocoderFromEnv } from './geocoding/geocoder.config.js';
import type { Geocoder } from './geocoding/geocoder.port.js';
import {
  getPermit,
  getPlanningSettings,
  setPermitOverride,
  setPlanningSettings,
} from './permits/permits.service.js';
import { definePlanningCollections } from './planning.collections.js';
import { getSchedule } from './schedule/schedule.service.js';
import { createTask, listTasks } from './tasks/tasks.service.js';
import { getTemplate, listTemplates, type Template } from './templates/templates.js';

export type PlanningHandlers = DomainHandlers<planning.PlanningServiceService>;

export interface PlanningDeps {
  /** Default: FIELDOPS_GEOCODER (the offline gazetteer unless configured). */
  geocoder?: Geocoder;
}

const templateView = (template: Template): planning.Template => ({ ...template, tasks: template.tasks });

export function createPlanningHandlers(store: DocumentStore, deps: PlanningDeps = {}): PlanningHandlers {
  const geocoder = deps.geocoder ?? geocoderFromEnv();
  return {
    getSchedule: (request, ctx) => getSchedule(store, request, ctx),
    listTemplates: async (request) => ({ items: listTemplates(request.vertical).map(templateView) }),
    getTemplate: async (request) => templateView(getTemplate(request.id)),
    getCompliance: (request, ctx) => getCompliance(store, geocoder, request, ctx),
    getPermit: (request, ctx) => getPermit(store, request, ctx),
    setPermitOverride: (request, ctx) => setPermitOverride(store, request, ctx),
    getPlanningSettings: (request, ctx) => getPlanningSettings(store, request, ctx),
    setPlanningSettings: (request, ctx) => setPlanningSettings(store, request, ctx),
    listTasks: (request, ctx) => listTasks(store, request, ctx),
    createTask: (request, ctx) => createTask(store, request, ctx),
    getDay: (request, ctx) => getDay(store, request, ctx),
    reportSitePreparation: (request, ctx) => reportSitePreparation(store, request, ctx),
    geocode: (request) => geocode(geocoder, request),
  };
}

/** Defines the planning collections and returns the handlers. */
export async function openPlanningDomain(
  store: DocumentStore,
  deps: PlanningDeps = {},
): Promise<PlanningHandlers> {
  await definePlanningCollections(store);
  return createPlanningHandlers(store, deps);
}
