// The schedule, tasks and day view as the PlanningService answers them, on a real embedded store:
// what a race can leave behind (a cycle filed by two members at once), tenant isolation, the
// member binding, and the events the writes emit.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId, nowIso } from '@fieldops/kit';
import { pagesBothWays } from '@fieldops/kit/testing';
import { planning as planningProto } from '@fieldops/proto';
import { gazetteerGeocoder } from '../src/geocoding/gazetteer.geocoder.ts';
import { openPlanningDomain, type PlanningHandlers } from '../src/planning.handlers.ts';
import { TASKS } from '../src/planning.collections.ts';
import type { TaskDoc } from '../src/tasks/task.model.ts';
import {
  ctx,
  openTestProjects,
  outboxEvents,
  refusal,
  TENANT_A,
  TENANT_B,
  type TestProjects,
} from './harness.ts';

let t: TestProjects;
let planning: PlanningHandlers;
let projectId: string;

beforeAll(async () => {
  t = await openTestProjects();
  planning = await openPlanningDomain(t.store, { geocoder: gazetteerGeocoder() });
  const customerId = await t.customer();
  const created = await t.projects.createProject(
    { customerId, customerName: 'Acme', vertical: 'survey' },
    ctx(),
  );
  projectId = created.project?.id ?? '';
});
afterAll(() => t.close());

const workTask = (fields: Partial<TaskDoc>): TaskDoc => ({
  id: newId('task'),
  tenantId: TENANT_A,
  version: 1,
  memberId: 'mem_ana',
  kind: 'work',
  title: 'Work',
  projectId,
  status: 'open',
  durationDays: 1,
  predecessors: [],
  createdAt: nowIso(),
  ...fields,
});

describe('PlanningService.getSchedule', () => {
  it('schedules the survey template and echoes the start', async () => {
    const plan = await planning.getSchedule({ projectId, start: '2025-03-14' }, ctx());
    expect(plan).toMatchObject({ start: '2025-03-14', finish: '2025-03-28', templateId: 'tpl_survey' });
  });

  it('answers 409 naming the cycle two members filed at once (what a race can leave)', async () => {
    const other = await t.projects.createProject(
      { customerId: await t.customer('Race Ltd'), customerName: 'Race', vertical: 'survey' },
      ctx(),
    );
    const racedId = other.project?.id ?? '';
    // A replacement of scope that waits on deliver: POST /tasks refuses it, but a race between
    // two filings (each checked before the other committed) or a template revision can leave it.
    await t.store.commit(TENANT_A, [
      {
        op: 'insert',
        collection: TASKS,
        doc: workTask({
          projectId: racedId,
          replacesTemplateTask: 'scope',
          predecessors: [{ taskId: 'deliver', type: 'FS', lagDays: 0 }],
        }),
      },
    ]);
    const error = await refusal(planning.getSchedule({ projectId: racedId, start: '2025-03-14' }, ctx()));
    expect(error.code).toBe('conflict');
    expect(error.extras['details']).toMatchObject({ reason: 'dependency_cycle' });
    expect((error.extras['details'] as { cycle: string[] }).cycle[0]).toBe('scope');
    expect(error.message).toMatch(/depend on each other in a circle/);
  });

  it("never reads another tenant's project", async () => {
    const error = await refusal(
      planning.getSchedule({ projectId, start: '2025-03-14' }, ctx({ tenantId: TENANT_B })),
    );
    expect(error.code).toBe('not_found');
  });

  it('refuses a date-time start itself, whatever the gateway let through', async () => {
    const error = await refusal(planning.getSchedule({ projectId, start: '2025-03-14T00:00:00Z' }, ctx()));
    expect([error.code, error.extras['field']]).toEqual(['field_invalid', 'start']);
  });
});

describe('PlanningService tasks and day view', () => {
  it('refuses an unbound principal with principal_unbound', async () => {
    const unbound = ctx({ principal: { kind: 'token', tokenId: 'tok_x', role: 'Manager', memberId: '' } });
    expect((await refusal(planning.listTasks({}, unbound))).code).toBe('principal_unbound');
    expect(
      (await refusal(planning.createTask({ kind: 'todo', title: 'x', predecessors: [] }, unbound))).code,
    ).toBe('principal_unbound');
  });

  it('files a visit with its event and lists it in the day of its date', async () => {
    const filed = await planning.createTask(
      { kind: 'visit', title: 'Site walk', projectId, dueDate: '2025-08-01', predecessors: [] },
      ctx(),
    );
    expect(filed.meta?.created).toBe(true);
    const events = await outboxEvents(t.store);
    expect(
      events.some((event) => event.type === 'task.created' && event.resource.id === filed.task?.id),
    ).toBe(true);
    const day = await planning.getDay({ date: '2025-08-01' }, ctx());
    expect(day.visits.map((visit) => visit.taskId)).toEqual([filed.task?.id]);
    expect(day.visits[0]?.readiness?.state).toBe('needs_preparation');
    expect((await planning.getDay({ date: '2025-08-01' }, ctx({ tenantId: TENANT_B }))).visits).toEqual([]);
  });

  it('answers itemsAsJson with the JSON of exactly what items decode to, page by page', async () => {
    for (const title of ['J1', 'J2', 'J3']) {
      await planning.createTask({ kind: 'todo', title, predecessors: [] }, ctx());
    }
    const pages = await pagesBothWays((page) => planning.listTasks({ page }, ctx()), planningProto.Task);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.json).toEqual(page.items);
  });

  it('rehearses a filing in a dry run and stores nothing', async () => {
    const dry = await planning.createTask(
      { kind: 'todo', title: 'Dry', predecessors: [] },
      ctx({ dryRun: true }),
    );
    expect(dry.meta?.rehearsal?.willDo).toMatch(/File the todo task "Dry"/);
    const listed = await planning.listTasks({}, ctx());
    expect(listed.items.map((task) => task.title)).not.toContain('Dry');
  });
});
