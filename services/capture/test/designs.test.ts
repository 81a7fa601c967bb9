// Designs on the real embedded store, through the service functions the gRPC binding calls: a
// draft is recorded with its event; sealing records who and when, exactly once even when two
// confirmed seals race; a sealed design is answered unchanged (replayed) and never rewritten.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { DESIGN_FIELD_LIMITS } from '@fieldops/contracts';
import { openEmbeddedBlobStore } from '@fieldops/kit/blobs';
import { type RequestContext, notFound, newId } from '@fieldops/kit';
import type { DomainEvent } from '@fieldops/kit/events';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import { defineCaptureCollections } from '../src/collections.ts';
import type { CaptureDeps } from '../src/deps.ts';
import { createDesign, getDesign, sealDesign } from '../src/designs/designs.service.ts';

const TENANT = 'ten_designs';
const PROJECT = 'prj_roof';

let dir: string;
let store: DocumentStore;
let deps: CaptureDeps;
let reports: { projectId: string; designs: number; deliverables: number }[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldops-designs-'));
  store = await openEmbeddedStore({ dir: join(dir, 'capture') });
  await defineCaptureCollections(store);
  reports = [];
  deps = {
    store,
    blobs: await openEmbeddedBlobStore({ dir: join(dir, 'blobs') }),
    // The projects service is another process (the HTTP tests use it); here the one project exists.
    projects: {
      requireProject: async (projectId) => {
        if (projectId !== PROJECT) throw notFound('project', projectId);
      },
      reportContent: async (projectId, content) => {
        reports.push({ projectId, ...content });
      },
    },
    settings: { cancelFeeCents: 0, engines: { colmap: false, nodeodm: false }, nodeOdmUrl: undefined },
  };
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = (confirmedBy = ''): RequestContext => ({
  requestId: newId('req'),
  tenant: { id: TENANT, currency: 'EUR', defaultVertical: 'solar' },
  principal: { kind: 'token', tokenId: 'tok_test', role: 'Manager', memberId: 'mem_ana' },
  idempotencyKey: '',
  agent: { runId: '', task: '', model: '', confirmedBy },
  dryRun: false,
  operation: 'test',
});

const events = async (type: string) =>
  (await store.pendingOutbox(1000))
    .map((record) => record.value as DomainEvent)
    .filter((event) => event.type === type);

async function draft() {
  const { design } = await createDesign(
    deps,
    { projectId: PROJECT, name: 'South roof', kind: 'solar_layout', sceneId: '', notes: '' },
    ctx(),
  );
  return design!;
}

describe('designs', () => {
  it('records a draft with its design.created event', async () => {
    const design = await draft();
    expect(design).toMatchObject({ status: 'draft', createdBy: 'mem_ana', kind: 'solar_layout' });
    expect(await events('design.created')).toHaveLength(1);
    expect(reports).toEqual([{ projectId: PROJECT, designs: 1, deliverables: 0, packagedDeliverables: 0 }]);
    await draft();
    expect(reports.at(-1)).toMatchObject({ designs: 2 });
  });

  it('reports nothing to projects on a dry run', async () => {
    const request = { projectId: PROJECT, name: 'X', kind: 'survey', sceneId: '', notes: '' };
    await createDesign(deps, request, { ...ctx(), dryRun: true });
    expect(reports).toEqual([]);
  });

  it('refuses a design on an unknown project, or of an unknown kind', async () => {
    const base = { name: 'X', kind: 'survey', sceneId: '', notes: '' };
    await expect(createDesign(deps, { ...base, projectId: 'prj_other' }, ctx())).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      createDesign(deps, { ...base, projectId: PROJECT, kind: 'blueprint' }, ctx()),
    ).rejects.toMatchObject({ code: 'field_invalid_enum' });
  });

  it.each(Object.entries(DESIGN_FIELD_LIMITS))(
    'refuses a %s over %i characters, as the gateway does',
    async (field, max) => {
      const over = 'x'.repeat(max + 1);
      const design = await draft();
      const write =
        field === 'note'
          ? sealDesign(deps, { projectId: PROJECT, designId: design.id, note: over }, ctx('R. Ortiz'))
          : createDesign(
              deps,
              { projectId: PROJECT, name: 'X', kind: 'survey', sceneId: '', notes: '', [field]: over },
              ctx(),
            );
      await expect(write).rejects.toMatchObject({ code: 'field_too_long', extras: { field } });
      expect(await events('design.sealed')).toEqual([]);
      expect(await events('design.created')).toHaveLength(1);
    },
  );

  it('seals exactly once when two confirmed seals race, and keeps the first seal', async () => {
    const design = await draft();
    const ref = { projectId: PROJECT, designId: design.id };
    const [one, two] = await Promise.all([
      sealDesign(deps, { ...ref, note: 'one' }, ctx('R. Ortiz')),
      sealDesign(deps, { ...ref, note: 'two' }, ctx('Someone else')),
    ]);
    expect([one.meta?.replayed, two.meta?.replayed].sort()).toEqual([false, true]);
    expect(one.design).toEqual(two.design);
    const sealed = await events('design.sealed');
    expect(sealed).toHaveLength(1);
    expect(await getDesign(deps, ref, ctx())).toEqual(one.design);
    expect(one.design).toMatchObject({ status: 'sealed', sealedByPrincipal: 'mem_ana' });
  });

  it('a sealed design is never rewritten: sealing again stores and emits nothing', async () => {
    const design = await draft();
    const ref = { projectId: PROJECT, designId: design.id };
    const first = await sealDesign(deps, { ...ref, note: 'first' }, ctx('R. Ortiz'));
    const again = await sealDesign(deps, { ...ref, note: 'second' }, ctx('Other'));
    expect(again.meta?.replayed).toBe(true);
    expect(again.design).toEqual(first.design);
    expect(again.design).toMatchObject({ sealNote: 'first', sealedByClaim: 'R. Ortiz' });
    expect(await events('design.sealed')).toHaveLength(1);
  });
});
