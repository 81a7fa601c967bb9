// The transactional-outbox relay: moves the events services committed to their store's outbox
// onto the event log, oldest first, so that a change and its event are never one without the other.
//
// Delivery is at least once. Events are published, then marked published. A crash between the two
// (or a mark that keeps failing until stop) leaves them pending, and the next relay publishes them
// again: consumers dedupe by event id (the `x-event-id` header; `value.id` of a DomainEvent).
// Nothing is marked published that the log did not accept, so nothing is lost either.
//
// One relay per store publishes: each replica of a service runs one, and they share a lease in the
// store (OUTBOX_RELAY_LEASE). The holder publishes and renews it every pass; the others only check,
// every followMs, whether it ran out (a killed leader stops renewing), and the first to find it
// free takes over. Within a tenant the leader publishes in seq order (port.ts), so events of one
// key stay in order whoever publishes them (docs/decisions.md, "Outbox order per tenant, and one relay per store").
// Tenants take turns within a batch (the store hands pending events out round-robin).
//
// Fencing: the lease is renewed before every batch, and its generation (a fencing token that grows
// whenever the lease changes hands) goes with the batch's mark, which the store refuses once the
// generation is no longer this relay's. A relay that lost the lease stops before its next batch,
// gives up a publish it was retrying, and marks nothing it published after losing it.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { traceOfEvent } from '../events/envelope.ts';
import type { EventLog, EventMessage } from '../events/port.ts';
import { startHop, type Hop } from '../tracing/hops.ts';
import { backoffMs, pause, Wakeup } from '../events/wakeup.ts';
import { LeaseLost, type DocumentStore, type LeaseFence, type OutboxRecord } from '../store/port.ts';

export interface OutboxRelayOptions {
  store: DocumentStore;
  log: EventLog;
  /** Events read from the outbox per pass. Default 100. */
  batchSize?: number;
  /** The fallback poll, for commits whose wake-up was missed. Default 250 ms. */
  idleMs?: number;
  /** Told of every failed step before it is retried. Default: a process warning. */
  onError?: (err: unknown) => void;
  /** How long the publishing relay's lease lasts unrenewed. Default 10 s: a killed leader's events wait about this long. */
  leaseMs?: number;
  /** How often a relay that is not the leader checks the lease. Default a quarter of leaseMs. */
  followMs?: number;
  /** This relay's name in the lease. Default host, process and a random part. */
  owner?: string;
}

/** The store lease that says which relay publishes. */
export const OUTBOX_RELAY_LEASE = 'outbox-relay';

export interface OutboxRelay {
  /** Stops after the step in hand (retries are abandoned). Leaves the store and the log open. */
  stop(): Promise<void>;
  /**
   * Resolves once every event pending when it was called is published (on a relay that is not the
   * leader: once nothing is pending, whoever published it); rejects if stopped first.
   */
  drain(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 100;
const DEFAULT_IDLE_MS = 250;
const DEFAULT_LEASE_MS = 10_000;
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
  private readonly leaseMs: number;
  private readonly followMs: number;
  private readonly owner: string;
  /** Until when (this process's clock, counted from before the take) the lease is surely ours. */
  private leaseUntil = 0;
  /** The generation of the lease this relay holds (0: none), sent with every mark. */
  private generation = 0;

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
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!Number.isInteger(this.leaseMs) || this.leaseMs < 1) {
      throw new RangeError(`leaseMs must be a whole number of at least 1, not ${this.leaseMs}`);
    }
    this.followMs = options.followMs ?? Math.max(1, Math.floor(this.leaseMs / 4));
    if (!(this.followMs >= 0)) throw new RangeError(`followMs must be 0 or more, not ${this.followMs}`);
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID()}`;
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

  /** Gives the lease up at stop, so another replica takes over at once rather than after leaseMs. */
  private async release(): Promise<void> {
    if (this.leaseUntil === 0) return;
    this.leaseUntil = 0;
    try {
      await this.store.releaseLease(OUTBOX_RELAY_LEASE, this.owner);
    } catch (err) {
      // The lease then runs out on its own.
      this.report(err);
    }
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      // Only a pass that starts after drain() was called can show that drain's events are out.
      const waiting = this.drains.splice(0);
      const leading = await this.lead();
      const caughtUp = leading ? await this.pass() : await this.nothingPending();
      if (caughtUp) for (const waiter of waiting) waiter.resolve();
      else this.drains.unshift(...waiting);
      if (this.stopped) break;
      // A follower ignores commits' wake-ups: only the lease running out changes what it may do.
      if (!leading) await pause(this.followMs, this.stopping.signal);
      // A full batch means more may be pending: go again, but let timers and I/O run first.
      else if (caughtUp) await this.wakeup.wait(this.idleMs);
      else await nextTurn();
    }
    await this.release();
  }

  /** Takes or renews the lease; true while this relay may publish. */
  private async lead(): Promise<boolean> {
    // The local bound runs on the monotonic clock: a wall clock stepped back (NTP) would make a
    // lease look held for longer than the store granted it.
    const asked = performance.now();
    const held = await this.retrying(() =>
      this.store.acquireLease(OUTBOX_RELAY_LEASE, this.owner, this.leaseMs),
    );
    const grant = held?.value ?? null;
    this.generation = grant?.generation ?? 0;
    this.leaseUntil = grant !== null ? asked + this.leaseMs : 0;
    return this.leaseUntil > 0;
  }

  /** A follower's drain: done once the leader has published everything. */
  private async nothingPending(): Promise<boolean> {
    const pending = await this.retrying(() => this.store.pendingOutbox(1));
    return pending !== null && pending.value.length === 0;
  }

  /** False once the lease may have run out (a pass that took long): the next pass renews it first. */
  private get leaseHeld(): boolean {
    return performance.now() < this.leaseUntil;
  }

  /**
   * Publishes one batch, oldest first, one publish per topic (the order within a topic is the
   * outbox order). True when the outbox was caught up: the batch was short and all of it went out.
   */
  private async pass(): Promise<boolean> {
    const batch = await this.retrying(() => this.store.pendingOutbox(this.batchSize));
    if (!batch) return false;
    for (const [topic, events] of byTopic(batch.value)) {
      if (this.stopped || !this.leaseHeld) return false;
      // Each event's publish is a span of the trace of the write that emitted it.
      const hops = events.map((event) => publishHop(topic, event));
      const messages = events.map((event, n) => toMessage(event, hops[n]));
      // A publish is retried only while the lease is surely held: a successor publishes the rest.
      const sent = await this.retrying(
        () => this.log.publish(topic, messages),
        () => this.leaseHeld,
      );
      for (const hop of hops) hop?.end(sent ? undefined : 'not published');
      if (!sent) return false;
      // A crash here publishes these events again after restart (at least once; consumers dedupe
      // by event id). The mark is retried on its own, so a failing mark does not republish.
      const published = events.map(({ tenantId, seq }) => ({ tenantId, seq }));
      const fence = this.fence();
      if (!(await this.retrying(() => this.store.markPublished(published, fence)))) return false;
    }
    return batch.value.length < this.batchSize;
  }

  private fence(): LeaseFence {
    return { name: OUTBOX_RELAY_LEASE, owner: this.owner, generation: this.generation };
  }

  /**
   * Runs a step until it succeeds, backing off between attempts; null once stopped, once `going`
   * says no more, or once the store refused the step for a lost lease (the lease is then dropped,
   * so the next pass asks for it first). The first attempt runs even when stopping, so that a
   * publish that went out is still marked.
   */
  private async retrying<T>(
    step: () => Promise<T>,
    going: () => boolean = () => true,
  ): Promise<{ value: T } | null> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return { value: await step() };
      } catch (err) {
        this.report(err);
        if (err instanceof LeaseLost) {
          this.leaseUntil = 0;
          this.generation = 0;
          return null;
        }
        if (this.stopped || !going()) return null;
        await pause(backoffMs(RETRY_BASE_MS, attempt, RETRY_CAP_MS), this.stopping.signal);
        if (this.stopped || !going()) return null;
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

/** The publish span of an event that carries a trace; none for one that carries none. */
function publishHop(topic: string, event: OutboxRecord): Hop | undefined {
  const trace = traceOfEvent(event.value);
  if (trace.traceparent === undefined) return undefined;
  return startHop(`publish ${topic}`, 'producer', trace, {
    'messaging.destination.name': topic,
    'messaging.message.id': event.id,
  });
}

/**
 * The key keeps order (a DomainEvent's key is its tenant); the headers let consumers dedupe
 * cheaply, and `traceparent` (the publish span) makes a consumer's span part of the write's trace
 * on any event log: a Kafka adapter sends these headers as the record's headers.
 */
function toMessage(event: OutboxRecord, hop: Hop | undefined): EventMessage {
  const headers: Record<string, string> = { 'x-event-id': event.id, 'x-tenant-id': event.tenantId };
  if (hop) Object.assign(headers, hop.carrier());
  return { key: event.key, value: event.value, headers };
}

function warn(err: unknown): void {
  process.emitWarning(err instanceof Error ? err : String(err), { code: 'FIELDOPS_OUTBOX_RELAY' });
}
