// Finalize on the real embedded store and blob store, through the service functions the gRPC
// binding calls: a finalize with a file missing is refused and changes nothing; a complete one
// meters the stored bytes and queues one run, once even when repeated; an abort is overridden by
// a finalize while the session machine's timed edge is open (its fee voided), and after that the
// session stays aborted. The races themselves run concurrently in test/capture-race.http.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CAPTURE_SESSION_MACHINE } from '@fieldops/contracts';
import { openEmbeddedBlobStore, type BlobKey, type BlobStore } from '@fieldops/kit/blobs';
import { type RequestContext, notFound, newId } from '@fieldops/kit';
import type { DomainEvent } from '@fieldops/kit/events';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import type { capture } from '@fieldops/proto';
import { CAPTURE_SESSIONS, defineCaptureCollections, RUNS, USAGE } from '../src/collections.ts';
import type { CaptureDeps } from '../src/deps.ts';
import type { UsageDoc } from '../src/metering/usage.ts';
import type { CaptureSessionDoc } from '../src/session-model/session.model.ts';
import { abortCapture, finalizeCapture, presignCapture } from '../src/sessions/sessions.service.ts';
import { PLY } from './support/queued-run.ts';

const TENANT = 'ten_finalize';
const PROJECT = 'prj_site';
const FEE_CENTS = 700;

let dir: string;
let store: DocumentStore;
let blobs: BlobStore;
let deps: CaptureDeps;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldops-finalize-'));
  store = await openEmbeddedStore({ dir: join(dir, 'capture') });
  await defineCaptureCollections(store);
  // Upload URLs are minted at presign but never fetched: the test stores the bytes itself.
  blobs = await openEmbeddedBlobStore({ dir: join(dir, 'blobs'), baseUrl: 'http://blobs.invalid/blobs' });
  deps = {
    store,
    blobs,
    // The projects service is another process (the HTTP tests use it); here the one project exists.
    projects: {
      requireProject: async (projectId) => {
        if (projectId !== PROJECT) throw notFound('project', projectId);
      },
      reportContent: async () => {},
    },
    settings: {
      cancelFeeCents: FEE_CENTS,
      engines: { colmap: false, nodeodm: false },
      nodeOdmUrl: undefined,
    },
  };
});
afterEach(async () => {
  await blobs.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = (): RequestContext => ({
  requestId: newId('req'),
  tenant: { id: TENANT, currency: 'EUR', defaultVertical: 'solar' },
  principal: { kind: 'token', tokenId: 'tok_test', role: 'Manager', memberId: 'mem_ana' },
  idempotencyKey: '',
  agent: { runId: '', task: '', model: '', confirmedBy: '' },
  dryRun: false,
  operation: 'test',
});

const ref = (session: capture.CaptureSession): capture.CaptureRef => ({
  projectId: PROJECT,
  sessionId: session.id,
});

async function presigned(): Promise<capture.CaptureSession> {
  const { session } = await presignCapture(
    deps,
    {
      projectId: PROJECT,
      source: 'drone',
      device: '',
      capturedBy: '',
      frames: [{ name: 'cloud.ply', contentType: 'application/x-ply', size: PLY.length }],
      mode: 'surface',
      engine: 'builtin',
      quality: '',
      opId: '',
    },
    ctx(),
  );
  return session!;
}

async function uploaded(): Promise<capture.CaptureSession> {
  const session = await presigned();
  await blobs.put(session.frames[0]!.key as BlobKey, PLY, { contentType: 'application/x-ply' });
  return session;
}

const stored = async (session: capture.CaptureSession) =>
  (await store.get<CaptureSessionDoc>(CAPTURE_SESSIONS, TENANT, session.id))!;
const usage = async (session: capture.CaptureSession) =>
  store.find<UsageDoc>(USAGE, TENANT, { subjectId: session.id });
const finalizedEvents = async () =>
  (await store.pendingOutbox(1000))
    .map((record) => record.value as DomainEvent)
    .filter((event) => event.type === 'capture.finalized');

describe('finalize', () => {
  it('refuses a session with a file not uploaded, naming it, and changes nothing', async () => {
    const session = await presigned();
    await expect(finalizeCapture(deps, ref(session), ctx())).rejects.toMatchObject({
      code: 'conflict',
      extras: { missing: [{ index: 0, name: 'cloud.ply', problem: 'not uploaded' }] },
    });
    expect((await stored(session)).status).toBe(CAPTURE_SESSION_MACHINE.initial);
    expect(await usage(session)).toEqual([]);
    expect(await store.count(RUNS, TENANT, {})).toBe(0);
  });

  it('meters the stored bytes and queues one run, once even when finalized again', async () => {
    const session = await uploaded();
    const first = await finalizeCapture(deps, ref(session), ctx());
    expect(first.session).toMatchObject({ status: 'finalized', storedBytes: PLY.length });
    expect(first.session!.runId).toMatch(/^run_/);

    const again = await finalizeCapture(deps, ref(session), ctx());
    expect(again.meta?.replayed).toBe(true);
    expect(again.session!.runId).toBe(first.session!.runId);
    expect((await usage(session)).map((entry) => [entry.kind, entry.quantity])).toEqual([
      ['upload_bytes', PLY.length],
    ]);
    expect(await store.count(RUNS, TENANT, {})).toBe(1);
    expect(await finalizedEvents()).toHaveLength(1);
  });

  it('overrides an abort while the timed edge is open, voiding the cancellation fee', async () => {
    const session = await uploaded();
    const aborted = await abortCapture(deps, { ...ref(session), reason: 'cancelled' }, ctx());
    expect(aborted.session).toMatchObject({ status: 'aborted', fee: { cents: FEE_CENTS } });

    const finalized = await finalizeCapture(deps, ref(session), ctx());
    expect(finalized.session).toMatchObject({ status: 'finalized', abortOverridden: true });
    expect(finalized.session!.fee).toBeUndefined();
    const fee = (await usage(session)).find((entry) => entry.kind === 'upload_cancel_fee');
    expect(fee?.voidedAt).toEqual(expect.any(String));
    expect(await finalizedEvents()).toHaveLength(1);
  });

  it('refuses to finalize an abort once the timed edge has closed, with no legal trigger left', async () => {
    const session = await uploaded();
    await abortCapture(deps, { ...ref(session), reason: 'failed' }, ctx());
    // The abort is dated past the machine's window, as a session aborted long ago would be.
    const doc = await stored(session);
    const window = CAPTURE_SESSION_MACHINE.timed.finalize!.withinMs;
    await store.commit(TENANT, [
      {
        op: 'replace',
        collection: CAPTURE_SESSIONS,
        doc: { ...doc, abortedAtMs: doc.abortedAtMs! - window - 1 },
        expectedVersion: doc.version,
      },
    ]);

    await expect(finalizeCapture(deps, ref(session), ctx())).rejects.toMatchObject({
      code: 'conflict',
      extras: { status: 'aborted', legalTriggers: [] },
    });
    expect((await stored(session)).status).toBe('aborted');
    expect(await store.count(RUNS, TENANT, {})).toBe(0);
  });
});
