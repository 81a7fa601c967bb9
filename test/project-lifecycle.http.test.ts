// The project lifecycle through HTTP: endpoint row 32 and the spec's Project lifecycle table,
// walked from the declared machine (contracts/src/project-lifecycle.machine.ts).
import { LIFECYCLE_API_TRIGGERS, PROJECT_LIFECYCLE_MACHINE } from '@fieldops/contracts';
import { describe, expect, it } from '@jest/globals';
import { type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { newCustomer, newProject, reportContent, type ProjectBody } from './support/projects.ts';

const { platform, api, tenantId } = await suiteTenant('Lifecycle Co');
const customerId = await newCustomer(api, 'Lifecycle Customer');

const fire = (id: string, trigger: string, headers?: Record<string, string>) =>
  api.post(`/projects/${id}/lifecycle`, { trigger }, headers);
const project = (reply: { body: Body }) => reply.body.project as ProjectBody;

/** A project walked to `status` along the happy path (with a packaged deliverable when needed). */
async function projectAt(status: string): Promise<ProjectBody> {
  const created = await newProject(api, customerId);
  const path: Record<string, string[]> = {
    planned: [],
    scheduled: ['schedule_assigned'],
    capturing: ['schedule_assigned', 'capture_started'],
    processing: ['schedule_assigned', 'capture_started', 'capture_completed'],
    delivered: ['schedule_assigned', 'capture_started', 'capture_completed', 'deliverable_shipped'],
    closed: ['schedule_assigned', 'capture_started', 'capture_completed', 'deliverable_shipped', 'close'],
    on_hold: ['hold'],
  };
  const triggers = path[status];
  if (!triggers) throw new Error(`no path to ${status}`);
  if (triggers.includes('deliverable_shipped')) {
    await reportContent(platform, tenantId, created.id, { deliverables: 1, packagedDeliverables: 1 });
  }
  for (const trigger of triggers) {
    const reply = await fire(created.id, trigger);
    if (reply.status !== 200) throw new Error(`${trigger}: ${JSON.stringify(reply.body)}`);
  }
  return created;
}

describe('POST /projects/:id/lifecycle', () => {
  it('fires schedule_assigned from planned', async () => {
    const created = await newProject(api, customerId);
    const reply = await fire(created.id, 'schedule_assigned');
    expect(reply.status).toBe(200);
    expect(project(reply).status).toBe('scheduled');
    expect(reply.body.replayed).toBeUndefined();
    expect(project(reply).legalTriggers).toEqual(PROJECT_LIFECYCLE_MACHINE.legalTriggers('scheduled'));
  });

  it('answers every trigger from every reachable status as the declared machine says', async () => {
    for (const status of [
      'planned',
      'scheduled',
      'capturing',
      'processing',
      'delivered',
      'closed',
      'on_hold',
    ]) {
      // Refusals and replays change nothing, so one project per status serves them all.
      const unmoved = await projectAt(status);
      for (const trigger of LIFECYCLE_API_TRIGGERS) {
        const to = PROJECT_LIFECYCLE_MACHINE.destination(trigger);
        const legal = to !== status && PROJECT_LIFECYCLE_MACHINE.legalTriggers(status).includes(trigger);
        const subject = legal ? await projectAt(status) : unmoved;
        if (trigger === 'deliverable_shipped') {
          await reportContent(platform, tenantId, subject.id, { deliverables: 1, packagedDeliverables: 1 });
        }
        const reply = await fire(subject.id, trigger);
        const where = `${trigger} from ${status}`;
        if (to === status) {
          expect([where, reply.status, reply.body.replayed]).toEqual([where, 200, true]);
        } else if (legal) {
          expect([where, reply.status, project(reply).status]).toEqual([where, 200, to]);
        } else {
          expect([where, reply.status, reply.body.code]).toEqual([where, 409, 'conflict']);
          expect(reply.body.legalTriggers).toEqual(PROJECT_LIFECYCLE_MACHINE.legalTriggers(status));
        }
      }
    }
  });

  it('answers a destination already reached with 200 replayed: true and changes nothing', async () => {
    const scheduled = await projectAt('scheduled');
    const before = (await api.get(`/projects/${scheduled.id}`)).body.etag;
    const again = await fire(scheduled.id, 'schedule_assigned');
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect((await api.get(`/projects/${scheduled.id}`)).body.etag).toBe(before);
  });

  it('refuses an illegal trigger with 409 and the legal triggers', async () => {
    const created = await newProject(api, customerId);
    const reply = await fire(created.id, 'capture_completed');
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ code: 'conflict', legalTriggers: ['schedule_assigned', 'hold'] });
    expect(((await api.get(`/projects/${created.id}`)).body.project as Body).status).toBe('planned');
  });

  it('refuses deliverable_shipped while no packaged deliverable exists', async () => {
    const processing = await projectAt('processing');
    const refused = await fire(processing.id, 'deliverable_shipped');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect(String(refused.body.error)).toContain('packaged deliverable');
    await reportContent(platform, tenantId, processing.id, { deliverables: 1, packagedDeliverables: 0 });
    expect((await fire(processing.id, 'deliverable_shipped')).status).toBe(409);
    await reportContent(platform, tenantId, processing.id, { deliverables: 1, packagedDeliverables: 1 });
    const shipped = await fire(processing.id, 'deliverable_shipped');
    expect(shipped.status).toBe(200);
    expect(project(shipped).status).toBe('delivered');
  });

  it('never accepts cancel, from any status', async () => {
    expect(PROJECT_LIFECYCLE_MACHINE.notByApi).toContain('cancel');
    for (const status of ['planned', 'processing', 'on_hold']) {
      const subject = await projectAt(status);
      const reply = await fire(subject.id, 'cancel');
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe('field_invalid_enum');
      expect(((await api.get(`/projects/${subject.id}`)).body.project as Body).status).toBe(status);
    }
  });

  it('refuses a missing or unknown trigger, extra fields and an unknown project', async () => {
    const created = await newProject(api, customerId);
    expect((await api.post(`/projects/${created.id}/lifecycle`, {})).body.code).toBe('field_required');
    expect((await fire(created.id, 'teleport')).body.code).toBe('field_invalid_enum');
    const extra = await api.post(`/projects/${created.id}/lifecycle`, { trigger: 'hold', status: 'closed' });
    expect(extra.body.code).toBe('unknown_field');
    expect((await api.request('POST', `/projects/${created.id}/lifecycle`, { body: '{' })).body.code).toBe(
      'invalid_json',
    );
    expect((await api.post(`/projects/${created.id}/lifecycle`, '"hold"')).body.code).toBe('invalid_body');
    expect((await fire('proj_missing', 'hold')).status).toBe(404);
  });

  it('rehearses a move with the dry-run header without applying it', async () => {
    const created = await newProject(api, customerId);
    const reply = await fire(created.id, 'hold', { 'x-service-dry-run': '1' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ dryRun: true, applied: false });
    expect(String(reply.body.willDo)).toContain('planned → on_hold');
    expect(((await api.get(`/projects/${created.id}`)).body.project as Body).status).toBe('planned');
  });
});
