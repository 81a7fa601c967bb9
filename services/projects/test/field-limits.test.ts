// The projects service re-checks the field limits the gateway states (contracts/src/field-limits):
// an over-long field sent straight to the service, past the gateway, is refused with the error and
// field name the HTTP API gives, and writes nothing. The tables are built from the limits data.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CALENDAR_LIMITS,
  ID_REF_MAX,
  PROJECT_FIELD_LIMITS,
  RECORD_ASSIGNEES_MAX,
  RECORD_FIELD_LIMITS,
  recordFieldsOf,
  TASK_DAYS_MAX,
  TASK_FIELD_LIMITS,
  TASK_PREDECESSORS_MAX,
} from '@fieldops/contracts';
import { gazetteerGeocoder } from '../src/geocoding/gazetteer.geocoder.ts';
import { openPlanningDomain, type PlanningHandlers } from '../src/planning.handlers.ts';
import { ctx, openTestProjects, outboxEvents, refusal, type TestProjects } from './harness.ts';

const tooLong = (max: number) => 'x'.repeat(max + 1);

let t: TestProjects;
let planning: PlanningHandlers;
let customerId: string;
let projectId: string;

beforeAll(async () => {
  t = await openTestProjects();
  planning = await openPlanningDomain(t.store, { geocoder: gazetteerGeocoder() });
  customerId = await t.customer();
  const created = await t.projects.createProject({ customerId, customerName: 'Acme' }, ctx());
  projectId = created.project?.id ?? '';
});
afterAll(() => t.close());

/** Expects `write` refused with `code` on `field` (and maxLength for a text), and nothing written. */
async function expectRefused(write: Promise<unknown>, code: string, field: string, maxLength?: number) {
  const before = (await outboxEvents(t.store)).length;
  const error = await refusal(write);
  expect(error.code).toBe(code);
  expect(error.extras).toMatchObject(maxLength === undefined ? { field } : { field, maxLength });
  expect(await outboxEvents(t.store)).toHaveLength(before);
}

describe('projects', () => {
  it.each(Object.entries(PROJECT_FIELD_LIMITS))('createProject refuses a %s over %i', async (field, max) => {
    const request = { customerId, customerName: 'Acme', [field]: tooLong(max) };
    await expectRefused(t.projects.createProject(request, ctx()), 'field_too_long', field, max);
  });

  it('updateProject refuses an over-long field and leaves the project as it was', async () => {
    const { project } = await t.projects.getProject({ id: projectId }, ctx());
    const max = PROJECT_FIELD_LIMITS.siteAddress;
    const request = { id: projectId, ifMatch: project?.etag ?? '', siteAddress: tooLong(max) };
    await expectRefused(t.projects.updateProject(request, ctx()), 'field_too_long', 'siteAddress', max);
    expect((await t.projects.getProject({ id: projectId }, ctx())).project).toEqual(project);
  });
});

describe('records', () => {
  // Each text field on a creatable kind that takes it, with what that kind requires besides.
  const bases = { punch: { title: 'Leak' }, rfi: { subject: 'Flashing', question: 'Which detail?' } };
  const cases = Object.entries(RECORD_FIELD_LIMITS).flatMap(([field, max]) => {
    const kind = (Object.keys(bases) as (keyof typeof bases)[]).find((k) =>
      recordFieldsOf(k).includes(field),
    );
    return kind ? [[field, max, kind] as const] : [];
  });

  it.each(cases)('createRecord refuses a %s over %i (kind %s)', async (field, max, kind) => {
    const request = { projectId, kind, ...bases[kind], assignees: [], [field]: tooLong(max) };
    await expectRefused(t.records.createRecord(request, ctx()), 'field_too_long', field, max);
  });

  it('refuses an over-long assignee id, named by its place in the list, and too many assignees', async () => {
    const base = { projectId, kind: 'punch', title: 'Leak' };
    const longId = { ...base, assignees: ['mem_a', tooLong(ID_REF_MAX)] };
    await expectRefused(t.records.createRecord(longId, ctx()), 'field_too_long', 'assignees.1', ID_REF_MAX);
    const many = {
      ...base,
      assignees: Array.from({ length: RECORD_ASSIGNEES_MAX + 1 }, (_, i) => `mem_${i}`),
    };
    await expectRefused(t.records.createRecord(many, ctx()), 'field_invalid', 'assignees');
  });
});

describe('planning', () => {
  const todo = { kind: 'todo', title: 'Call the site', predecessors: [] };

  it.each(Object.entries(TASK_FIELD_LIMITS))('createTask refuses a %s over %i', async (field, max) => {
    const request = { ...todo, [field]: tooLong(max) };
    await expectRefused(planning.createTask(request, ctx()), 'field_too_long', field, max);
  });

  it('createTask refuses durationDays and predecessors past their limits', async () => {
    const work = { ...todo, kind: 'work', projectId, durationDays: TASK_DAYS_MAX + 1 };
    await expectRefused(planning.createTask(work, ctx()), 'field_invalid', 'durationDays');
    const dependency = { taskId: 'survey', type: 'FS', lagDays: 0 };
    const predecessors = Array.from({ length: TASK_PREDECESSORS_MAX + 1 }, () => dependency);
    const crowded = { ...work, durationDays: 1, predecessors };
    await expectRefused(planning.createTask(crowded, ctx()), 'field_invalid', 'predecessors');
  });

  it('createTask refuses a malformed predecessor as field_invalid naming it, not as an internal error', async () => {
    const work = { ...todo, kind: 'work', projectId, durationDays: 1 };
    const predecessors = [{ taskId: 'survey', type: 'XX', lagDays: 0 }];
    await expectRefused(
      planning.createTask({ ...work, predecessors }, ctx()),
      'field_invalid',
      'predecessors.0.type',
    );
  });

  it("setPlanningSettings refuses an over-long time zone, named as the gateway's calendar.timeZone", async () => {
    const max = CALENDAR_LIMITS.timeZone;
    const calendar = { timeZone: tooLong(max), workingDays: [], holidays: [] };
    const write = planning.setPlanningSettings({ calendar, permitDefaults: [], droppedKeys: [] }, ctx());
    await expectRefused(write, 'field_too_long', 'calendar.timeZone', max);
  });
});
