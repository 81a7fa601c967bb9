// Project records through the handlers: each kind's status machine (submittal transitions are
// enforced by the server), retraction events, and kinds read-only through the API.
import { RECORD_STATUS_MACHINES, recordStatusesOf, type RecordKind } from '@fieldops/contracts';
import { pagesBothWays } from '@fieldops/kit/testing';
import { projects as projectsProto, type common } from '@fieldops/proto';
import { ctx, openTestProjects, outboxEvents, refusal, type TestProjects } from './harness.ts';

describe('project records', () => {
  let t: TestProjects;
  let projectId: string;
  beforeEach(async () => {
    t = await openTestProjects();
    const customerId = await t.customer();
    projectId =
      (await t.projects.createProject({ customerId, customerName: 'Acme' }, ctx())).project?.id ?? '';
  });
  afterEach(() => t.close());

  const importRecord = async (kind: RecordKind) => {
    const fields = kind === 'rfi' ? { subject: 'S', question: 'Q?' } : { title: `A ${kind}` };
    const write = await t.records.importRecord({ projectId, kind, ...fields, assignees: [] }, ctx());
    return write.record?.id ?? '';
  };
  const move = (id: string, kind: RecordKind, status: string) =>
    t.records.moveRecordStatus({ projectId, id, kind, status }, ctx());

  it('walks a submittal through review and refuses every move the table does not declare', async () => {
    const id = await importRecord('submittal');
    for (const status of [
      'submitted',
      'under_review',
      'revise_and_resubmit',
      'submitted',
      'under_review',
      'approved',
    ]) {
      expect((await move(id, 'submittal', status)).record?.status).toBe(status);
    }
    const after = await refusal(move(id, 'submittal', 'submitted'));
    expect(after.code).toBe('conflict');
    expect(after.extras['legalTransitions']).toEqual([]);
  });

  it('answers every status pair of every kind as its declared machine says', async () => {
    for (const kind of Object.keys(RECORD_STATUS_MACHINES) as RecordKind[]) {
      const machine: Record<string, readonly string[]> = RECORD_STATUS_MACHINES[kind].moves;
      for (const from of recordStatusesOf(kind)) {
        for (const to of recordStatusesOf(kind)) {
          const id = await importRecord(kind);
          const path = pathTo(machine, RECORD_STATUS_MACHINES[kind].initial, from);
          for (const step of path) await move(id, kind, step);
          if (from === to) {
            expect((await move(id, kind, to)).meta?.replayed).toBe(true);
          } else if (machine[from]?.includes(to)) {
            expect((await move(id, kind, to)).record?.status).toBe(to);
          } else {
            const refused = await refusal(move(id, kind, to));
            expect([kind, from, to, refused.code]).toEqual([kind, from, to, 'conflict']);
            expect(refused.extras['legalTransitions']).toEqual(machine[from]);
          }
        }
      }
    }
  });

  it('refuses an unknown status and any move of a retracted record', async () => {
    const id = await importRecord('submittal');
    expect((await refusal(move(id, 'submittal', 'lost'))).code).toBe('field_invalid_enum');
    await t.records.voidRecord({ projectId, id, kind: 'submittal' }, ctx());
    expect((await refusal(move(id, 'submittal', 'submitted'))).code).toBe('conflict');
  });

  it('keeps submittals, drawings and minutes out of the API create', async () => {
    for (const kind of ['submittal', 'drawing', 'minutes']) {
      const created = t.records.createRecord({ projectId, kind, title: 'x', assignees: [] }, ctx());
      expect((await refusal(created)).code).toBe('field_invalid_enum');
    }
  });

  it('answers itemsAsJson with the JSON of exactly what items decode to, page by page', async () => {
    for (let i = 0; i < 3; i++) {
      await t.records.createRecord({ projectId, kind: 'punch', title: `P${i}`, assignees: ['mem_1'] }, ctx());
    }
    const list = (page: common.PageRequest) =>
      t.records.listRecords({ projectId, kind: 'punch', page, includeVoided: false }, ctx());
    const pages = await pagesBothWays(list, projectsProto.ProjectRecord);
    expect(pages).toHaveLength(2);
    for (const page of pages) expect(page.json).toEqual(page.items);
  });

  it('emits record.voided once; a repeated void stores and emits nothing', async () => {
    const write = await t.records.createRecord(
      { projectId, kind: 'punch', title: 'P', assignees: [] },
      ctx(),
    );
    const id = write.record?.id ?? '';
    const first = await t.records.voidRecord({ projectId, id, kind: 'punch' }, ctx());
    const again = await t.records.voidRecord({ projectId, id, kind: 'punch' }, ctx());
    expect(again.record?.voidedAt).toBe(first.record?.voidedAt);
    expect(again.record?.etag).toBe(first.record?.etag);
    const types = (await outboxEvents(t.store)).map((event) => event.type);
    expect(types.filter((type) => type === 'record.voided')).toHaveLength(1);
  });
});

/** The shortest path of statuses from `start` to `goal` through the machine (BFS). */
function pathTo(machine: Record<string, readonly string[]>, start: string, goal: string): string[] {
  const previous = new Map<string, string>([[start, start]]);
  const queue = [start];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    if (current === goal) break;
    for (const next of machine[current] ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, current);
      queue.push(next);
    }
  }
  const path: string[] = [];
  for (let step = goal; step !== start; step = previous.get(step) ?? start) path.unshift(step);
  return path;
}
