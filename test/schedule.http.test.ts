// GET /projects/:id/schedule through HTTP (endpoint row 29): the critical-path plan of a project's
// network (its vertical's template plus its work tasks) on the tenant's calendar, hand-checked.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { type Body, type Client } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { newCustomer, newProject } from './support/projects.ts';

let member: Client;

interface Task extends Body {
  id: string;
  source: string;
  durationDays: number;
  earlyStart: string;
  earlyFinish: string;
  totalFloat: number;
  critical: boolean;
}
interface Plan extends Body {
  start: string;
  firstWorkingDay: string;
  finish: string;
  durationDays: number;
  templateId: string;
  tasks: Task[];
  criticalPath: string[];
  criticalPaths: string[][];
}

const { platform, api, tenantId } = await suiteTenant('Schedule Co');
const customerId = await newCustomer(api, 'Schedule Customer');
beforeAll(async () => {
  const created = await platform.admin.post(`/tenants/${tenantId}/members`, {
    name: 'Pat Planner',
    email: 'pat@schedule.test',
    role: 'Manager',
  });
  const memberId = (created.body.member as { id: string }).id;
  ({ api: member } = await platform.token(tenantId, { role: 'Manager', memberId }));
});

const plan = (reply: { body: Body }) => reply.body.schedule as Plan;
const byId = (p: Plan) => Object.fromEntries(p.tasks.map((task) => [task.id, task]));

describe('GET /projects/:id/schedule', () => {
  it('plans the survey template from Friday 14 March 2025: 11 working days, finishing Friday 28 March', async () => {
    const project = await newProject(api, customerId, { vertical: 'survey' });
    const reply = await api.get(`/projects/${project.id}/schedule?start=2025-03-14`);
    expect(reply.status).toBe(200);
    const p = plan(reply);
    expect(p).toMatchObject({
      start: '2025-03-14',
      templateId: 'tpl_survey',
      durationDays: 11,
      finish: '2025-03-28',
    });
    // Hand-checked: the airspace check (3 days) drives the flight plan review; the desk review
    // and the draft flight plan have a day of float.
    expect(p.criticalPath).toEqual([
      'scope',
      'airspace',
      'plan-review',
      'control',
      'capture',
      'process',
      'accuracy',
      'deliver',
      'delivered',
    ]);
    const at = byId(p);
    expect(at['site-review']).toMatchObject({ totalFloat: 1, critical: false, earlyStart: '2025-03-17' });
    expect(at['airspace']).toMatchObject({
      earlyStart: '2025-03-17',
      earlyFinish: '2025-03-19',
      totalFloat: 0,
    });
    // The weekend is skipped: plan review Thursday 20, control Friday 21, capture Monday 24.
    expect(at['capture']).toMatchObject({ earlyStart: '2025-03-24', earlyFinish: '2025-03-24' });
    expect(at['delivered']).toMatchObject({ earlyStart: '2025-03-28', durationDays: 0 });
  });

  it('echoes the start as sent and begins on the first working day after a weekend start', async () => {
    const project = await newProject(api, customerId);
    const p = plan(await api.get(`/projects/${project.id}/schedule?start=2025-03-15`));
    expect(p.start).toBe('2025-03-15');
    expect(p.firstWorkingDay).toBe('2025-03-17');
  });

  it('plans from today when no start is sent', async () => {
    const project = await newProject(api, customerId);
    const p = plan(await api.get(`/projects/${project.id}/schedule`));
    expect(p.start).toBe(new Date().toISOString().slice(0, 10));
  });

  it('refuses a date-time start with 400 field_invalid naming start', async () => {
    const project = await newProject(api, customerId);
    for (const start of ['2025-03-14T09:00:00Z', '2025-03-14 09:00', '14/03/2025', '2025-02-30']) {
      const reply = await api.get(`/projects/${project.id}/schedule?start=${encodeURIComponent(start)}`);
      expect([start, reply.status, reply.body.code]).toEqual([start, 400, 'field_invalid']);
      expect(reply.body.error).toContain('start');
    }
  });

  it('answers 404 for a project that does not exist', async () => {
    const reply = await api.get('/projects/prj_missing/schedule?start=2025-03-14');
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('not_found');
  });

  it("schedules the project's work tasks: a longer capture replaces the template's and moves the finish", async () => {
    const project = await newProject(api, customerId, { vertical: 'survey' });
    const filed = await member.post('/tasks', {
      kind: 'work',
      title: 'Fly the site in two passes',
      projectId: project.id,
      durationDays: 3,
      predecessors: [{ taskId: 'control' }],
      replacesTemplateTask: 'capture',
    });
    expect(filed.status).toBe(201);
    const extra = await member.post('/tasks', {
      kind: 'work',
      title: 'Client walk-through',
      projectId: project.id,
      durationDays: 1,
      predecessors: [{ taskId: 'capture', type: 'SS', lagDays: 1 }],
    });
    const p = plan(await api.get(`/projects/${project.id}/schedule?start=2025-03-14`));
    expect(byId(p)['capture']).toMatchObject({
      source: 'project',
      durationDays: 3,
      earlyFinish: '2025-03-26',
    });
    expect(p.durationDays).toBe(13);
    expect(p.finish).toBe('2025-04-01');
    const walkId = (extra.body.task as { networkId: string }).networkId;
    expect(byId(p)[walkId]).toMatchObject({ source: 'project', earlyStart: '2025-03-25', critical: false });
  });

  it('answers 409 naming why when the plan runs past its horizon', async () => {
    const project = await newProject(api, customerId, { vertical: 'inspection' });
    let previous = 'delivered';
    for (let i = 0; i < 6; i += 1) {
      const reply = await member.post('/tasks', {
        kind: 'work',
        title: `Phase ${i}`,
        projectId: project.id,
        durationDays: 1000,
        predecessors: [{ taskId: previous }],
      });
      previous = (reply.body.task as { networkId: string }).networkId;
    }
    const reply = await api.get(`/projects/${project.id}/schedule?start=2025-03-14`);
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe('conflict');
    expect(reply.body.details).toMatchObject({ reason: 'beyond_horizon' });
    expect(reply.body.error).toMatch(/cannot be computed/);
  });

  it("runs on the tenant's work calendar: holidays and working days move the dates", async () => {
    const other = await platform.tenant('Calendar Co');
    const otherCustomer = await newCustomer(other.api, 'Calendar Customer');
    const project = await newProject(other.api, otherCustomer, { vertical: 'survey' });
    const set = await other.api.post('/settings/planning', {
      calendar: { workingDays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], holidays: ['2025-03-17'] },
    });
    expect(set.status).toBe(200);
    const p = plan(await other.api.get(`/projects/${project.id}/schedule?start=2025-03-14`));
    expect(p).toMatchObject({ durationDays: 11 });
    // Fri 14, Sat 15, (Sun off, Mon 17 holiday) Tue 18 ... Sat 22, Mon 24: the eleventh is Thu 27.
    expect(byId(p)['site-review']?.earlyStart).toBe('2025-03-15');
    expect(p.finish).toBe('2025-03-27');
    expect((p as Body).calendar).toMatchObject({ holidays: ['2025-03-17'] });
  });
});
