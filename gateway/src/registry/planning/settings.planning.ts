// GET /api/v1/settings/planning,
// POST /api/v1/settings/planning:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./planning.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import {
  permitBody,
  permitBodyDescription,
  permitEntries,
  calendarInput,
  settingsSchema,
} from './planning.schemas.ts';

export const getPlanningSettings = defineEndpoint({
  operationId: 'getPlanningSettings',
  method: 'GET',
  path: '/settings/planning',
  tag: 'Settings',
  summary: "The tenant's planning settings: permit metadata defaults and the work calendar schedules run on.",
  auth: 'scope',
  scope: { action: 'read', kind: 'settings' },
  response: z.object({ settings: settingsSchema }),
  handle: async ({ ctx, clients }) => ({
    body: { settings: await callUnary(clients.planning, 'getPlanningSettings', {}, ctx) },
  }),
});

export const setPlanningSettings = defineEndpoint({
  operationId: 'setPlanningSettings',
  method: 'POST',
  path: '/settings/planning',
  tag: 'Settings',
  summary:
    "Set the tenant's permit defaults (sparse; unknown keys dropped) and work calendar; project overrides stay.",
  auth: 'scope',
  scope: { action: 'update', kind: 'settings' },
  idempotent: true,
  dryRun: true,
  body: z.strictObject({
    permitDefaults: permitBody.optional().describe(permitBodyDescription),
    calendar: calendarInput.optional(),
    opId: opIdField,
  }),
  bodyRequiresOneOf: ['permitDefaults', 'calendar'],
  response: writeResponse('settings', settingsSchema).extend({ droppedKeys: z.array(z.string()) }),
  handle: async ({ body, ctx, clients }) => {
    const permit = permitEntries(body.permitDefaults ?? {});
    const calendar = body.calendar
      ? {
          timeZone: body.calendar.timeZone ?? '',
          workingDays: body.calendar.workingDays ?? [],
          holidays: body.calendar.holidays ?? [],
        }
      : undefined;
    const write = await callUnary(
      clients.planning,
      'setPlanningSettings',
      { permitDefaults: permit.entries, calendar, droppedKeys: permit.droppedKeys },
      ctx,
    );
    const result = writeResult('settings', write.settings, write.meta);
    return { ...result, body: { ...result.body, droppedKeys: write.droppedKeys } };
  },
});
