// fieldops_capture_runs_waiting: the runs no worker holds (queued, handed back, or whose worker's
// lease ran out), read from capture's active-run list at each scrape. It is what the capture
// workers' KEDA ScaledObject scales on: Kafka consumer lag cannot say it, since a worker commits a
// `run.queued` job's offset once the run is tracked, whether or not a slot was free
// (reconstruction-worker.ts). Only capture's process exports it (it holds the store).
import { RUN_STATUS_MACHINE } from '@fieldops/contracts';
import { scrapedGauge } from '@fieldops/kit/metrics';
import type { DocumentStore } from '@fieldops/kit/store';
import { listActiveRuns } from './active-runs.ts';
import { RUNS } from '../collections.ts';
import type { RunDoc } from '../run-model/run.model.ts';

/** The most active runs one scrape reads: past it the gauge reads "at least this many". */
export const RUNS_WAITING_SCAN = 1000;

const runsWaiting = scrapedGauge(
  'fieldops_capture_runs_waiting',
  'Runs queued for reconstruction that no worker holds (the capture workers scale on it).',
);

/** Whether no worker holds the run: it waits for a free slot. */
export const isWaiting = (run: RunDoc, now: number): boolean =>
  run.status === RUN_STATUS_MACHINE.initial ||
  (run.status === RUN_STATUS_MACHINE.destination('claim') && (run.lease?.untilMs ?? 0) <= now);

export async function countWaitingRuns(store: DocumentStore): Promise<number> {
  const now = Date.now();
  const entries = await listActiveRuns(store, RUNS_WAITING_SCAN);
  let waiting = 0;
  for (const entry of entries) {
    const run = await store.get<RunDoc>(RUNS, entry.runTenantId, entry.id);
    if (run && isWaiting(run, now)) waiting++;
  }
  return waiting;
}

/** Makes this store's runs the gauge's; the returned function undoes it (the server's stop). */
export const exportRunsWaiting = (store: DocumentStore): (() => void) =>
  runsWaiting.from(() => countWaitingRuns(store));
