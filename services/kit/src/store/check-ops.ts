// The programmer errors commit() refuses before anything applies (or is sent to the server): ops for
// another tenant, unknown collections, malformed ops. Both adapters (embedded.ts, mongo/) check with
// these rules, so a service that is wrong fails the same way on both. That includes a document
// MongoDB cannot index (arrays in two fields of one declared key, its code 171), refused here rather
// than by one store's server alone.
import type { CollectionSpec, Doc, OutboxEvent, WriteOp } from './port.ts';

/** The spec of a defined collection; throws for one that is not defined. */
export type SpecLookup = (name: string) => CollectionSpec;

export function checkOps(tenantId: string, ops: WriteOp[], specOf: SpecLookup): void {
  if (!Array.isArray(ops)) throw new Error('commit needs a list of ops');
  for (const op of ops) checkOp(tenantId, op, specOf);
}

function checkOp(tenantId: string, op: WriteOp, specOf: SpecLookup): void {
  if (op.op === 'emit') {
    checkEvent(tenantId, op.event);
    return;
  }
  if (op.op !== 'insert' && op.op !== 'replace' && op.op !== 'delete') {
    throw new Error(`unknown write op ${(op as { op: unknown }).op as string}`);
  }
  const spec = specOf(op.collection);
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
  checkKeyArrays(spec, op.doc);
}

/**
 * Refuses what the stores would index apart. An array in a unique key field: MongoDB holds each
 * element unique, the embedded store the whole array. Arrays in two fields of one index: MongoDB
 * cannot index the document at all (CannotIndexParallelArrays, 171).
 */
function checkKeyArrays(spec: CollectionSpec, doc: Doc): void {
  for (const fields of spec.unique ?? []) {
    const array = fields.find((field) => reachesArray(doc, field));
    if (array !== undefined) {
      throw new Error(
        `document ${doc.id} of ${spec.name} holds an array in ${array}, a field of the unique key ` +
          `[${fields.join(', ')}]; a unique key holds single values`,
      );
    }
  }
  for (const fields of spec.indexes ?? []) {
    const arrays = fields.filter((field) => reachesArray(doc, field));
    if (arrays.length > 1) {
      throw new Error(
        `document ${doc.id} of ${spec.name} holds arrays in ${arrays.join(' and ')}, fields of the index ` +
          `[${fields.join(', ')}]; an index may hold an array in one field only`,
      );
    }
  }
}

/** Whether the dot path meets an array on its way or at its end. */
function reachesArray(doc: Doc, path: string): boolean {
  let current: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(current)) return true;
    if (current === null || typeof current !== 'object') return false;
    current = (current as Record<string, unknown>)[part];
  }
  return Array.isArray(current);
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
