// A tenant's planning settings: the permit metadata defaults (what the operating business holds:
// operator registration, pilot certificate, insurance...) and the work calendar schedules run on.
// One document per tenant; absent until first set, when the defaults are empty and the calendar is
// Monday to Friday in UTC.
import type { DocumentStore, Doc } from '@fieldops/kit/store';
import { PLANNING_SETTINGS, PLANNING_SETTINGS_ID } from '../planning.collections.ts';
import { DEFAULT_CALENDAR, type CalendarSpec } from '../schedule/calendar.schema.ts';
import type { PermitValues } from './permit-merge.ts';

export interface PlanningSettingsDoc extends Doc {
  permitDefaults: PermitValues;
  calendar: CalendarSpec;
  updatedAt: string;
}

export interface PlanningSettings {
  doc: PlanningSettingsDoc | null;
  permitDefaults: PermitValues;
  calendar: CalendarSpec;
  updatedAt: string;
}

export async function loadPlanningSettings(
  store: DocumentStore,
  tenantId: string,
): Promise<PlanningSettings> {
  const doc = await store.get<PlanningSettingsDoc>(PLANNING_SETTINGS, tenantId, PLANNING_SETTINGS_ID);
  return {
    doc,
    permitDefaults: doc?.permitDefaults ?? {},
    calendar: doc?.calendar ?? DEFAULT_CALENDAR,
    updatedAt: doc?.updatedAt ?? '',
  };
}
