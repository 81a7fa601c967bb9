// The background packager: takes queued exports off the queue one at a time and moves each
// through tables → assets → packaging → ready. Every restart starts an unfinished export again
// from a clean staging folder (at most maxAttempts starts, then it fails naming the phase it was
// in); ready is written last, after the archive is stored whole and its checksum known, so no
// half archive is ever marked ready. A stop (or a kill) mid-way records nothing: the claim lapses
// and the next packager takes the export up again.
import { EXPORT_STATUS_MACHINE } from '@fieldops/contracts';
import { blobKey, type BlobStore } from '@fieldops/kit/blobs';
import { systemContext, type RequestContext, nowIso, type Logger } from '@fieldops/kit';
import { classifyFailure, Wakeup } from '@fieldops/kit/events';
import { PRIVATE_DIR_MODE } from '@fieldops/kit/process';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EXPORTS } from '../collections.ts';
import { emitExportsEvent } from '../events.ts';
import {
  claimableEntries,
  dequeueExport,
  holdEntry,
  leaseEntry,
  type QueueEntry,
} from '../exports/export-queue.ts';
import { EXPORT_PHASES, isSettled, type ExportDoc, type ExportPhase } from '../exports/export.model.ts';
import type { ExportSettings } from '../exports/export-settings.ts';
import { purgeExpiredArchives, schedulePurge } from './archive-purge.ts';
import { EXPORTS_BLOB_FOLDER, stageBlobs } from './stage-blobs.ts';
import { stageTables } from './stage-tables.ts';
import type { TenantSource } from './tenant-sources.ts';
import { ARCHIVE_FORMAT, writeArchive, writeManifest } from './write-archive.ts';

export interface PackagerDeps {
  store: DocumentStore;
  blobs: BlobStore;
  sources: readonly TenantSource[];
  settings: ExportSettings;
  logger: Pick<Logger, 'warn' | 'error'>;
}

export interface Packager {
  wake(): void;
  stop(): Promise<void>;
}

/** Thrown when the packager is stopped mid-way: nothing is recorded, the export is resumed later. */
class Stopped extends Error {}

interface Job {
  deps: PackagerDeps;
  entry: QueueEntry;
  doc: ExportDoc;
  ctx: RequestContext;
  signal: AbortSignal;
  phase: ExportPhase;
}

export function startPackager(deps: PackagerDeps): Packager {
  const wakeup = new Wakeup();
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      const worked = await runOnce(deps, abort.signal).catch((error: unknown) => {
        if (!abort.signal.aborted) deps.logger.error({ err: error }, 'export packager pass failed');
        return false;
      });
      if (!worked && !abort.signal.aborted) await wakeup.wait(deps.settings.pollMs);
    }
  })();
  return {
    wake: () => wakeup.notify(),
    stop: async () => {
      abort.abort();
      wakeup.notify();
      await loop;
    },
  };
}

/** Deletes expired archives, then packages what is claimable now; false when there was nothing to do. */
async function runOnce(deps: PackagerDeps, signal: AbortSignal): Promise<boolean> {
  const purged = await purgeExpiredArchives(deps.store, deps.blobs);
  const entries = await claimableEntries(deps.store, 10);
  for (const entry of entries) {
    if (signal.aborted) break;
    const leased = await leaseEntry(deps.store, entry, deps.settings.leaseMs);
    if (leased) await packageExport(deps, leased, signal);
  }
  return purged > 0 || entries.length > 0;
}

async function packageExport(deps: PackagerDeps, entry: QueueEntry, signal: AbortSignal): Promise<void> {
  const tenantId = entry.exportTenantId;
  const doc = await deps.store.get<ExportDoc>(EXPORTS, tenantId, entry.id);
  if (!doc || isSettled(doc)) {
    // A packager that died between settling and dequeuing may not have scheduled the purge.
    if (doc) await schedulePurge(deps.store, doc);
    await dequeueExport(deps.store, entry.id);
    return;
  }
  const ctx = systemContext({ id: tenantId, currency: '', defaultVertical: '' }, 'packageExport');
  const phase = EXPORT_PHASES.find((name) => name === doc.status) ?? EXPORT_PHASES[0];
  const job: Job = { deps, entry, doc, ctx, signal, phase };
  if (doc.attempts >= deps.settings.maxAttempts) {
    const message = `The packager stopped ${doc.attempts} times before finishing; request a new export.`;
    await finish(job, failure(job, message));
    return;
  }
  job.doc = await save(job, { attempts: doc.attempts + 1 });
  try {
    await runPhases(job);
  } catch (error) {
    if (signal.aborted || error instanceof Stopped) return; // resumed by the next packager
    if (mayWaitFor(job, error)) return await waitForDependency(job, doc.attempts, error);
    const reason = error instanceof Error ? error.message : String(error);
    deps.logger.warn({ err: error, exportId: doc.id, phase: job.phase }, 'export failed');
    await finish(job, failure(job, `The ${job.phase} phase failed: ${reason}`));
  } finally {
    await rm(stagingDir(job), { recursive: true, force: true });
    await rm(archivePath(job), { force: true });
    await rm(`${archivePath(job)}.partial`, { force: true });
  }
}

/**
 * A dependency that is away (a service restarting, the store or S3 unreachable: what a rollout or
 * an outage does) is not the export's fault, so it does not fail it at once. The export waits, for
 * at most dependencyWaitMs from the first such failure, and an export that never reaches its
 * dependency still fails, naming the phase.
 */
function mayWaitFor(job: Job, error: unknown): boolean {
  if (classifyFailure(error) !== 'retryable') return false;
  const since = job.entry.waitingSince ? Date.parse(job.entry.waitingSince) : Date.now();
  return Date.now() - since < job.deps.settings.dependencyWaitMs;
}

/** Sets the export aside for retryMs, giving back the attempt this start took (attempts count stops). */
async function waitForDependency(job: Job, attempts: number, error: unknown): Promise<void> {
  const { deps, entry } = job;
  deps.logger.warn({ err: error, exportId: job.doc.id, phase: job.phase }, 'export waits for a dependency');
  try {
    job.doc = await save(job, { attempts });
    await holdEntry(deps.store, entry, deps.settings.retryMs, entry.waitingSince ?? nowIso());
  } catch (failure) {
    // The store is away too: the claim lapses by itself and the next packager tries again.
    deps.logger.warn({ err: failure, exportId: job.doc.id }, 'export could not be set aside');
  }
}

const stagingDir = (job: Job) => join(job.deps.settings.workDir, job.doc.id);
const archivePath = (job: Job) => join(job.deps.settings.workDir, `${job.doc.id}.tar.gz`);

async function runPhases(job: Job): Promise<void> {
  const { deps, ctx } = job;
  const staging = stagingDir(job);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: PRIVATE_DIR_MODE });

  await enter(job, 'tabulate');
  const tables = await stageTables(deps.sources, staging, ctx);
  await enter(job, 'collectAssets');
  const blobs = await stageBlobs(deps.blobs, job.doc.tenantId, staging);
  await enter(job, 'package');
  const paths = await writeManifest(staging, {
    format: ARCHIVE_FORMAT,
    exportId: job.doc.id,
    tenantId: job.doc.tenantId,
    requestedAt: job.doc.createdAt,
    packagedAt: nowIso(),
    tables,
    blobs,
  });
  const archive = await writeArchive(staging, paths, archivePath(job));
  checkStopped(job);
  const key = blobKey(job.doc.tenantId, EXPORTS_BLOB_FOLDER, `${job.doc.id}.tar.gz`);
  const head = await deps.blobs.put(key, createReadStream(archive.path), { contentType: 'application/gzip' });
  if (head.size !== archive.bytes) {
    throw new Error(`the stored archive has ${head.size} bytes where ${archive.bytes} were written`);
  }
  checkStopped(job);
  const readyAt = nowIso();
  const ready = {
    status: EXPORT_STATUS_MACHINE.destination('finish'),
    archiveKey: key,
    sizeBytes: archive.bytes,
    sha256: archive.sha256,
    readyAt,
    expiresAt: new Date(Date.parse(readyAt) + deps.settings.retentionMs).toISOString(),
  };
  await finish(job, {
    changes: ready,
    event: emitExportsEvent(
      ctx,
      'export.ready',
      { kind: 'export', id: job.doc.id },
      { sizeBytes: archive.bytes },
    ),
  });
}

function checkStopped(job: Job): void {
  if (job.signal.aborted) throw new Stopped('stopped');
}

/** Pauses (tests), renews the claim and fires `trigger`, recording the phase the export is now in. */
async function enter(job: Job, trigger: 'tabulate' | 'collectAssets' | 'package'): Promise<void> {
  const phase = EXPORT_STATUS_MACHINE.destination(trigger) as ExportPhase;
  job.phase = phase;
  const delay = job.deps.settings.phaseDelayMs;
  if (delay > 0) await sleep(delay, undefined, { signal: job.signal }).catch(() => undefined);
  checkStopped(job);
  const renewed = await leaseEntry(job.deps.store, job.entry, job.deps.settings.leaseMs);
  if (!renewed) throw new Stopped('another packager took this export over');
  job.entry = renewed;
  job.doc = await save(job, { status: phase });
}

async function save(job: Job, changes: Partial<ExportDoc>, extra: WriteOp[] = []): Promise<ExportDoc> {
  if (changes.status && !EXPORT_STATUS_MACHINE.canMove(job.doc.status, changes.status)) {
    throw new Error(`export ${job.doc.id} cannot move from ${job.doc.status} to ${changes.status}`);
  }
  const next: ExportDoc = { ...job.doc, ...changes, version: job.doc.version + 1, updatedAt: nowIso() };
  await job.deps.store.commit(next.tenantId, [
    { op: 'replace', collection: EXPORTS, doc: next, expectedVersion: job.doc.version },
    ...extra,
  ]);
  return next;
}

interface Outcome {
  changes: Partial<ExportDoc>;
  event: WriteOp;
}

function failure(job: Job, message: string): Outcome {
  const phase = EXPORT_PHASES.includes(job.phase) ? job.phase : EXPORT_PHASES[0];
  return {
    changes: { status: EXPORT_STATUS_MACHINE.destination('fail'), error: { phase, message } },
    event: emitExportsEvent(job.ctx, 'export.failed', { kind: 'export', id: job.doc.id }, { phase }),
  };
}

/** Settles the export (ready or failed, with its event), schedules its purge, takes it off the queue. */
async function finish(job: Job, outcome: Outcome): Promise<void> {
  job.doc = await save(job, outcome.changes, [outcome.event]);
  await schedulePurge(job.deps.store, job.doc);
  await dequeueExport(job.deps.store, job.doc.id);
}
