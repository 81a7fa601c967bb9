// The transactional-outbox relay: moves the events services committed to their store's outbox
// onto the event log, oldest first, so that a change and its event are never one without the other.
//
// Delivery is at least once. Events are published, then marked published. A crash between the two
// (or a mark that keeps failing until stop) leaves them pending, and the next relay publishes them
// again: consumers dedupe by event id (the `x-event-id` header; `value.id` of a DomainEvent).
// Nothing is marked published that the log did not accept, so nothing is lost either.
//
// Run one relay per store: two would publish every event twice (harmless, but wasted work).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EventLog, EventMessage } from '../events/port.js';
import { backoffMs, pause, Wakeup } from '../events/wakeup.js';
import type { DocumentStore, OutboxRecord } from '../store/port.js';

export interface OutboxRelayOptions {
  store: DocumentStore;
  log: EventLog;
  /** Events read from the outbox per pass. Default 100. */
  batchSize?: number;
  /** The fallback poll, for commits whose wake-up was missed. Default 250 ms. */
  idleMs?: number;
  /** Told of every failed step before it is retried. Default: a process warning. */
  onError?: (err: unknown) => void;
}

export interface OutboxRelay {
  /** Stops after the step in hand (retries are abandoned). Leaves the store and the log open. */
  stop(): Promise<void>;
  /** Resolves once every event pending when it was called is published; rejects if stopped first. */
  drain(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 100;
const DEFAULT_IDLE_MS = 250;
const RETRY_BASE_MS = 50;
/** A log that is down for long is still tried every few seconds. */
const RETRY_CAP_MS = 5_000;

export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const relay = new Relay(options);
  return { stop: () => relay.stop(), drain: () => relay.drain() };
}

interface DrainWaiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

class Relay {
  private readonly store: DocumentStore;
  private readonly log: EventLog;
  private readonly batchSize: number;
  private readonly idleMs: number;
  private readonly onError: (err: unknown) => void;
  private readonly wakeup = new Wakeup();
  private readonly stopping = new AbortController();
  private readonly unlisten: () => void;
  private readonly done: Promise<void>;
  private drains: DrainWaiter[] = [];

  constructor(options: OutboxRelayOptions) {
    this.store = options.store;
    this.log = options.log;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.onError = options.onError ?? warn;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) {
      throw new RangeError(`batchSize must be a whole number of at least 1, not ${this.batchSize}`);
    }
    if (!(this.idleMs >= 0)) throw new RangeError(`idleMs must be 0 or more, not ${this.idleMs}`);
    this.unlisten = this.store.onOutbox(() => this.wakeup.notify());
    this.done = this.run();
  }

  drain(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the outbox relay is stopped'));
    return new Promise((resolve, reject) => {
      this.drains.push({ resolve, reject });
      this.wakeup.notify();
    });
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopping.abort();
      this.unlisten();
      this.wakeup.notify();
    }
    await this.done;
    for (const waiter of this.drains.splice(0))
      waiter.reject(new Error('the outbox relay stopped before draining'));
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      // Only a pass that starts after drain() was called can show that drain's events are out.
      const waiting = this.drains.splice(0);
      const caughtUp = await this.pass();
      if (caughtUp) for (const waiter of waiting) waiter.resolve();
      else this.drains.unshift(...waiting);
      if (this.stopped) break;
      // A full batch means more may be pending: go again, but let timers and I/O run first.
      if (caughtUp) await this.wakeup.wait(this.idleMs);
      else await nextTurn();
    }
  }

  /**
   * Publishes one batch, oldest first, one publish per topic (the order within a topic is the
   * outbox order). True when the outbox was caught up: the batch was short and all of it went out.
   */
  private async pass(): Promise<boolean> {
    const batch = await this.retrying(() => this.store.pendingOutbox(this.batchSize));
    if (!batch) return false;
    for (const [topic, events] of byTopic(batch.value)) {
      if (this.stopped) return false;
      if (!(await this.retrying(() => this.log.publish(topic, events.map(toMessage))))) return false;
      // A crash here publishes these events again after restart (at least once; consumers dedupe
      // by event id). The mark is retried on its own, so a failing mark does not republish.
      const seqs = events.map((event) => event.seq);
      if (!(await this.retrying(() => this.store.markPublished(seqs)))) return false;
    }
    return batch.value.length < this.batchSize;
  }

  /**
   * Runs a step until it succeeds, backing off between attempts; null once stopped. The first
   * attempt runs even when stopping, so that a publish that went out is still marked.
   */
  private async retrying<T>(step: () => Promise<T>): Promise<{ value: T } | null> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return { value: await step() };
      } catch (err) {
        this.report(err);
        if (this.stopped) return null;
        await pause(backoffMs(RETRY_BASE_MS, attempt, RETRY_CAP_MS), this.stopping.signal);
        if (this.stopped) return null;
      }
    }
  }

  private report(err: unknown): void {
    try {
      this.onError(err);
    } catch {
      // A failing error reporter must not stop the relay; the step is retried all the same.
    }
  }
}

function byTopic(events: OutboxRecord[]): Map<string, OutboxRecord[]> {
  const topics = new Map<string, OutboxRecord[]>();
  for (const event of events) {
    const list = topics.get(event.topic);
    if (list) list.push(event);
    else topics.set(event.topic, [event]);
  }
  return topics;
}

/** The key keeps order (a DomainEvent's key is its tenant); the headers let consumers dedupe cheaply. */
function toMessage(event: OutboxRecord): EventMessage {
  return {
    key: event.key,
    value: event.value,
    headers: { 'x-event-id': event.id, 'x-tenant-id': event.tenantId },
  };
}

function warn(err: unknown): void {
  process.emitWarning(err instanceof Error ? err : String(err), { code: 'FIELDOPS_OUTBOX_RELAY' });
}
