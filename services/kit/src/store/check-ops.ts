// The programmer errors commit() refuses before anything applies (or is sent to the server): ops for
// another tenant, unknown collections, malformed ops. Both adapters (embedded.ts, mongo/) check with
// these rules, so a service that is wrong fails the same way on both.
import type { OutboxEvent, WriteOp } from './port.js';

export function checkOps(tenantId: string, ops: WriteOp[], assertDefined: (name: string) => void): void {
  if (!Array.isArray(ops)) throw new Error('commit needs a list of ops');
  for (const op of ops) checkOp(tenantId, op, assertDefined);
}

function checkOp(tenantId: string, op: WriteOp, assertDefined: (name: string) => void): void {
  if (op.op === 'emit') {
    checkEvent(tenantId, op.event);
    return;
  }
  if (op.op !== 'insert' && op.op !== 'replace' && op.op !== 'delete') {
    throw new Error(`unknown write op ${(op as { op: unknown }).op as string}`);
  }
  assertDefined(op.collection);
  if (op.op === 'delete') {
    if (typeof op.id !== 'string' || op.id === '') throw new Error('delete needs an id');
    if (op.expectedVersion !== undefined && !Number.isInteger(op.expectedVersion)) {
      throw new Error('delete needs an integer expectedVersion when it gives one');
    }
    return;
  }
  if (op.doc === null || typeof op.doc !== 'object') throw new Error(`${op.op} needs a document`);
  if (typeof op.doc.id !== 'string' || op.doc.id === '') throw new Error(`${op.op} needs a document id`);
  if (op.doc.tenantId !== tenantId) {
    throw new Error(`${op.op} of ${op.doc.id} belongs to tenant ${String(op.doc.tenantId)}, not ${tenantId}`);
  }
  if (op.op === 'replace' && !Number.isInteger(op.expectedVersion)) {
    throw new Error('replace needs an integer expectedVersion');
  }
}

function checkEvent(tenantId: string, event: OutboxEvent): void {
  if (event === null || typeof event !== 'object') throw new Error('emit needs an event');
  for (const field of ['id', 'topic', 'key'] as const) {
    if (typeof event[field] !== 'string') throw new Error(`outbox event needs a string ${field}`);
  }
  if (event.tenantId !== tenantId) {
    throw new Error(`event ${event.id} belongs to tenant ${String(event.tenantId)}, not ${tenantId}`);
  }
}

/**
 * Detaches a caller's object and makes it plain JSON (undefined dropped, Dates as ISO strings): what
 * both adapters store (and the embedded journal replays), so a read returns the same on both.
 */
export function plainJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
