// The RunLeases contract: what a reconstruction worker relies on from capture, whichever adapter
// carries it (in-process over capture's store, or capture's RunLeaseService over gRPC). The runs
// are seeded and checked in capture's own store, as its owner sees them. The heart of it is the
// lease rule: every change is applied at the run version the worker last held, so a worker that
// lost its lease changes nothing and a run taken over is completed once in effect.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { blobKey } from '@fieldops/kit/blobs';
import type { DomainEvent } from '@fieldops/kit/events';
import type { DocumentStore } from '@fieldops/kit/store';
import { outboxEvents, refusal } from '@fieldops/kit/testing';
import { RUNS, SCENES } from '../../src/collections.ts';
import type { RunDoc } from '../../src/run-model/run.model.ts';
import type { ClaimOutcome, ClaimedRun, RunLeases, RunResult } from '../../src/worker/run-leases.port.ts';
import { seedQueuedRun } from '../support/queued-run.ts';

export interface OpenedRunLeases {
  leases: RunLeases;
  /** Capture's own store behind the adapter. */
  store: DocumentStore;
  cleanup: () => Promise<void>;
}

const TENANT = 'ten_leases';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function claimed(outcome: ClaimOutcome): ClaimedRun {
  if (!('claimed' in outcome)) throw new Error(`expected a claim, got skipped: ${outcome.skipped}`);
  return outcome.claimed;
}

const resultFor = (runId: string, attempt: number): RunResult => ({
  scene: {
    kind: 'point-cloud',
    pointCount: 3,
    formats: ['ply'],
    bounds: { minX: 0, minY: 0, minZ: 0, maxX: 1, maxY: 1, maxZ: 2 },
  },
  artifacts: [
    {
      key: blobKey(TENANT, 'runs', runId, `attempt-${attempt}`, 'points.ply'),
      name: 'points.ply',
      contentType: 'application/x-ply',
      size: 120,
    },
  ],
});

export function describeRunLeasesContract(adapterName: string, open: () => Promise<OpenedRunLeases>): void {
  describe(`run leases contract: ${adapterName}`, () => {
    let leases: RunLeases;
    let store: DocumentStore;
    let cleanup: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      ({ leases, store, cleanup } = await open());
    });
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    const readRun = async (id: string) => (await store.get<RunDoc>(RUNS, TENANT, id))!;
    const eventsOf = async (runId: string, type: string) =>
      (await outboxEvents(store)).filter(
        (event: DomainEvent) => event.type === type && JSON.stringify(event).includes(runId),
      );
    const activeIds = async () => (await leases.listActive(100)).map((entry) => entry.runId);

    it('claims a queued run with what the engine needs, and refuses a second claim while held', async () => {
      const seeded = await seedQueuedRun(store, TENANT);
      const run = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_a', 5000));
      expect(run).toMatchObject({
        held: { tenantId: TENANT, runId: seeded.runId, owner: 'wrk_a', version: 2 },
        captureId: seeded.captureId,
        attempts: 1,
        maxAttempts: 3,
        engine: 'builtin',
        mode: 'surface',
        control: false,
        hasLidar: false,
        tenantCurrency: 'USD',
        tenantDefaultVertical: 'survey',
      });
      expect(run.frames).toEqual([
        {
          key: seeded.frameKey,
          name: 'scan.ply',
          contentType: 'application/x-ply',
          size: expect.any(Number),
        },
      ]);
      expect(await leases.claim(TENANT, seeded.runId, 'wrk_b', 5000)).toEqual({ skipped: 'held' });
      expect((await readRun(seeded.runId)).status).toBe('running');
    });

    it('renews at the held version only, recording progress', async () => {
      const seeded = await seedQueuedRun(store, TENANT);
      const run = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_a', 5000));
      const next = await leases.renew(run.held, 5000, { fraction: 0.4, phase: 'meshing' });
      expect(next).toEqual({ ...run.held, version: run.held.version + 1 });
      expect(await readRun(seeded.runId)).toMatchObject({ progress: 0.4, phase: 'meshing' });
      // The hold it replaced is spent: a worker that sends it again has lost track of the run.
      expect(await leases.renew(run.held, 5000)).toBeNull();
    });

    it('refuses everything a worker that lost its lease sends; the run taken over completes once', async () => {
      const seeded = await seedQueuedRun(store, TENANT);
      await leases.track(TENANT, seeded.runId);
      const a = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_a', 50));
      await sleep(80);
      const b = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_b', 5000));
      expect(b.attempts).toBe(2);

      expect(await leases.renew(a.held, 5000, { fraction: 0.9, phase: 'stale' })).toBeNull();
      expect(await leases.complete(a.held, resultFor(seeded.runId, 1))).toBe(false);
      expect(await leases.fail(a.held, 'stale failure')).toBe(false);
      expect(await leases.release(a.held)).toBe(false);

      const renewed = await leases.renew(b.held, 5000, { fraction: 0.5, phase: 'meshing' });
      expect(renewed).not.toBeNull();
      expect(await leases.complete(renewed!, resultFor(seeded.runId, 2))).toBe(true);
      expect(await leases.complete(renewed!, resultFor(seeded.runId, 2))).toBe(false);

      const scenes = await store.find(SCENES, TENANT, { runId: seeded.runId });
      expect(scenes).toHaveLength(1);
      expect(await readRun(seeded.runId)).toMatchObject({
        status: 'succeeded',
        attempts: 2,
        progress: 1,
        sceneId: scenes[0]!.id,
      });
      expect(await eventsOf(seeded.runId, 'run.started')).toHaveLength(2);
      expect(await eventsOf(seeded.runId, 'scene.ready')).toHaveLength(1);
      expect(await eventsOf(seeded.runId, 'run.succeeded')).toHaveLength(1);
      expect(await eventsOf(seeded.runId, 'run.failed')).toHaveLength(0);
      expect(await leases.claim(TENANT, seeded.runId, 'wrk_c', 50)).toEqual({ skipped: 'done' });
      expect(await activeIds()).not.toContain(seeded.runId);
    });

    it('tracks a run once, lists it with its tenant, and forgets it when it fails', async () => {
      const seeded = await seedQueuedRun(store, TENANT);
      await leases.track(TENANT, seeded.runId);
      await leases.track(TENANT, seeded.runId);
      const listed = (await leases.listActive(100)).filter((entry) => entry.runId === seeded.runId);
      expect(listed).toEqual([{ tenantId: TENANT, runId: seeded.runId }]);
      const run = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_a', 5000));
      expect(await leases.fail(run.held, 'The file is corrupt.')).toBe(true);
      expect(await readRun(seeded.runId)).toMatchObject({ status: 'failed', error: 'The file is corrupt.' });
      expect((await readRun(seeded.runId)).inFlightCaptureId).toBeUndefined();
      expect(await activeIds()).not.toContain(seeded.runId);
    });

    it('releases a run to the queue, and the next claim is the next attempt', async () => {
      const seeded = await seedQueuedRun(store, TENANT);
      const first = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_a', 5000));
      expect(await leases.release(first.held)).toBe(true);
      expect(await readRun(seeded.runId)).toMatchObject({ status: 'queued', phase: 'waiting to retry' });
      expect(await leases.renew(first.held, 5000)).toBeNull();
      const second = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_b', 5000));
      expect(second.attempts).toBe(2);
    });

    it('takes a handed-back run back to the queue without spending its attempt', async () => {
      const seeded = await seedQueuedRun(store, TENANT);
      await leases.track(TENANT, seeded.runId);
      const first = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_a', 5000));
      expect(first.attempts).toBe(1);
      expect(await leases.handBack(first.held)).toBe(true);
      expect(await readRun(seeded.runId)).toMatchObject({
        status: 'queued',
        attempts: 0,
        phase: 'handed back by a stopping worker',
      });
      expect(await leases.handBack(first.held)).toBe(false); // the hold is gone with it
      expect(await activeIds()).toContain(seeded.runId);
      const second = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_b', 5000));
      expect(second.attempts).toBe(1);
    });

    it('gives a run up after its attempts are spent, saying so on the run', async () => {
      const seeded = await seedQueuedRun(store, TENANT);
      await leases.track(TENANT, seeded.runId);
      for (let attempt = 1; attempt <= 3; attempt++) {
        claimed(await leases.claim(TENANT, seeded.runId, `wrk_${attempt}`, 1));
        await sleep(5);
      }
      expect(await leases.claim(TENANT, seeded.runId, 'wrk_4', 1)).toEqual({ skipped: 'exhausted' });
      const run = await readRun(seeded.runId);
      expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/started 3 times/) });
      expect(run.inFlightCaptureId).toBeUndefined();
      expect(await activeIds()).not.toContain(seeded.runId);
    });

    it('answers missing for an unknown run, and fails a run whose capture is gone', async () => {
      expect(await leases.claim(TENANT, 'run_unknown', 'wrk_a', 5000)).toEqual({ skipped: 'missing' });
      const seeded = await seedQueuedRun(store, TENANT, { session: false });
      await leases.track(TENANT, seeded.runId);
      expect(await leases.claim(TENANT, seeded.runId, 'wrk_a', 5000)).toEqual({ skipped: 'missing' });
      expect(await readRun(seeded.runId)).toMatchObject({
        status: 'failed',
        error: `Capture ${seeded.captureId} no longer exists.`,
      });
      expect(await activeIds()).not.toContain(seeded.runId);
    });

    it("refuses a scene that lists another tenant's files", async () => {
      const seeded = await seedQueuedRun(store, TENANT);
      const run = claimed(await leases.claim(TENANT, seeded.runId, 'wrk_a', 5000));
      const result = resultFor(seeded.runId, 1);
      const foreign = { ...result.artifacts[0]!, key: blobKey('ten_other', 'runs', 'x', 'points.ply') };
      const refused = await refusal(leases.complete(run.held, { ...result, artifacts: [foreign] }));
      expect(refused.code).toBe('field_invalid');
      expect(await store.find(SCENES, TENANT, { runId: seeded.runId })).toHaveLength(0);
      expect(await leases.complete(run.held, result)).toBe(true);
    });
  });
}
