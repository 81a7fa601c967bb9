// Permit metadata (GET/POST /projects/:id/permit) and the tenant's planning settings
// (GET/POST /settings/planning). Writes go through runWrite: exactly-once by key, dry-runnable,
// atomic with their event. Unknown keys never reach here: they are dropped and only named back.
import { CALENDAR_LIMITS, isPermitKey, MAX_PERMIT_VALUE_LENGTH } from '@fieldops/contracts';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import { requireTenantId, runWrite } from '@fieldops/kit/write';
import type { planning } from '@fieldops/proto';
import { eventEffect, updateEffect, checkLengths } from '@fieldops/kit/domain';
import { PERMIT_OVERRIDES, PLANNING_SETTINGS, PLANNING_SETTINGS_ID } from '../planning.collections.ts';
import { emitPlanningEvent } from '../planning.events.ts';
import { loadProject } from '../projects/projects.service.ts';
import type { CalendarInput } from '../schedule/calendar.schema.ts';
import { workCalendar } from '../schedule/work-calendar.ts';
import { applyEntries, mergePermit, type PermitValues } from './permit-merge.ts';
import { loadPlanningSettings, type PlanningSettingsDoc } from './planning-settings.ts';
import { type Doc, type DocumentStore, type WriteOp, upsertOp } from '@fieldops/kit/store';

interface PermitOverrideDoc extends Doc {
  values: PermitValues;
  updatedAt: string;
}

/** The service's own check of the entries (the gateway drops unknown keys first). */
function checkEntries(entries: readonly planning.PermitEntry[]): void {
  for (const { key, value } of entries) {
    if (!isPermitKey(key)) throw new AppError('invalid_body', `${key} is not a permit metadata key.`);
    if (value !== undefined && value.length > MAX_PERMIT_VALUE_LENGTH)
      throw new AppError('invalid_body', `${key} must be at most ${MAX_PERMIT_VALUE_LENGTH} characters.`);
  }
}

async function permitOf(store: DocumentStore, tenantId: string, projectId: string) {
  const [settings, override] = await Promise.all([
    loadPlanningSettings(store, tenantId),
    store.get<PermitOverrideDoc>(PERMIT_OVERRIDES, tenantId, projectId),
  ]);
  return { settings, override };
}

function permitView(
  projectId: string,
  defaults: PermitValues,
  override: PermitValues,
): planning.PermitMetadata {
  const effective = mergePermit(defaults, override);
  return {
    projectId,
    metadata: effective.metadata,
    values: effective.values,
    tenantDefaults: defaults,
    projectOverride: override,
  };
}

export async function getPermit(
  store: DocumentStore,
  req: planning.GetPermitRequest,
  ctx: RequestContext,
): Promise<planning.PermitMetadata> {
  const tenantId = requireTenantId(ctx);
  await loadProject(store, tenantId, req.projectId);
  const { settings, override } = await permitOf(store, tenantId, req.projectId);
  return permitView(req.projectId, settings.permitDefaults, override?.values ?? {});
}

/** The metadata in effect for a project (compliance reads it for plan-set readiness). */
export async function effectivePermit(
  store: DocumentStore,
  tenantId: string,
  projectId: string,
): Promise<PermitValues> {
  const { settings, override } = await permitOf(store, tenantId, projectId);
  return mergePermit(settings.permitDefaults, override?.values ?? {}).metadata;
}

export async function setPermitOverride(
  store: DocumentStore,
  req: planning.SetPermitOverrideRequest,
  ctx: RequestContext,
): Promise<planning.PermitWrite> {
  const tenantId = requireTenantId(ctx);
  checkEntries(req.entries);
  const { result, meta } = await runWrite(store, ctx, {
    operation: 'setProjectPermit',
    fingerprint: req,
    plan: async () => {
      await loadProject(store, tenantId, req.projectId);
      const { settings, override } = await permitOf(store, tenantId, req.projectId);
      const before = override?.values ?? {};
      const values = applyEntries(before, req.entries);
      const doc: PermitOverrideDoc = {
        id: req.projectId,
        tenantId,
        version: (override?.version ?? 0) + 1,
        values,
        updatedAt: nowIso(),
      };
      const ops: WriteOp[] = [
        upsertOp(PERMIT_OVERRIDES, doc, override),
        emitPlanningEvent(
          ctx,
          'permit.override_set',
          { kind: 'project', id: req.projectId },
          { keys: Object.keys(values) },
        ),
      ];
      return {
        ops,
        result: permitView(req.projectId, settings.permitDefaults, values),
        created: false,
        rehearsal: {
          willDo: `Set the permit metadata override of project ${req.projectId}; the tenant defaults stay as they are.`,
          effects: [
            updateEffect('permit', req.projectId, changesOf(before, values)),
            eventEffect('permit.override_set', req.projectId),
          ],
        },
      };
    },
  });
  return { permit: result, droppedKeys: req.droppedKeys, meta };
}

function changesOf(before: PermitValues, after: PermitValues) {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter((key) => before[key] !== after[key])
    .map((key) => ({ field: key, from: before[key], to: after[key] }));
}

function settingsView(
  doc: Pick<PlanningSettingsDoc, 'permitDefaults' | 'calendar' | 'updatedAt'>,
): planning.PlanningSettings {
  return { permitDefaults: doc.permitDefaults, calendar: doc.calendar, updatedAt: doc.updatedAt };
}

export async function getPlanningSettings(
  store: DocumentStore,
  _req: planning.GetPlanningSettingsRequest,
  ctx: RequestContext,
): Promise<planning.PlanningSettings> {
  return settingsView(await loadPlanningSettings(store, requireTenantId(ctx)));
}

export async function setPlanningSettings(
  store: DocumentStore,
  req: planning.SetPlanningSettingsRequest,
  ctx: RequestContext,
): Promise<planning.PlanningSettingsWrite> {
  const tenantId = requireTenantId(ctx);
  checkEntries(req.permitDefaults);
  // Parses and normalises the calendar; a bad one is field_invalid naming the member at fault.
  const calendar = req.calendar ? workCalendar(calendarInputOf(req.calendar)).spec : undefined;
  const { result, meta } = await runWrite(store, ctx, {
    operation: 'setPlanningSettings',
    fingerprint: req,
    plan: async () => {
      const current = await loadPlanningSettings(store, tenantId);
      const doc: PlanningSettingsDoc = {
        id: PLANNING_SETTINGS_ID,
        tenantId,
        version: (current.doc?.version ?? 0) + 1,
        permitDefaults: applyEntries(current.permitDefaults, req.permitDefaults),
        calendar: calendar ?? current.calendar,
        updatedAt: nowIso(),
      };
      return {
        ops: [
          upsertOp(PLANNING_SETTINGS, doc, current.doc),
          emitPlanningEvent(
            ctx,
            'planning_settings.updated',
            { kind: 'tenant', id: tenantId },
            {
              permitKeys: Object.keys(doc.permitDefaults),
              calendarChanged: calendar !== undefined,
            },
          ),
        ],
        result: settingsView(doc),
        created: false,
        rehearsal: {
          willDo:
            "Update the tenant's planning settings (permit defaults and work calendar); project overrides stay as they are.",
          effects: [
            updateEffect(
              'planning_settings',
              tenantId,
              changesOf(current.permitDefaults, doc.permitDefaults),
            ),
            eventEffect('planning_settings.updated', tenantId),
          ],
        },
      };
    },
  });
  return { settings: result, droppedKeys: req.droppedKeys, meta };
}

/** A calendar as the message carries it: empty members were not sent and take their defaults. */
function calendarInputOf(message: planning.WorkCalendar): CalendarInput {
  checkLengths({ timeZone: CALENDAR_LIMITS.timeZone }, message, 'calendar');
  return {
    ...(message.timeZone ? { timeZone: message.timeZone } : {}),
    ...(message.workingDays.length
      ? { workingDays: message.workingDays as CalendarInput['workingDays'] }
      : {}),
    ...(message.holidays.length ? { holidays: message.holidays } : {}),
  };
}
