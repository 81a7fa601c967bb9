// The tenant's hash chain, as pure functions: how an entry is hashed and how a chain is checked.
// Each entry's hash covers its own content and the hash before it, so changing, removing or
// reordering any entry breaks every link after it; the head hash summarises the whole trail.
import { createHash } from 'node:crypto';
import type { audit } from '@fieldops/proto';

/** An entry as hashed and stored; `redacted` is only ever set on a proof shown to a restricted reader. */
export type AuditEntry = Omit<audit.Entry, 'redacted'>;

/** The last link of a tenant's chain, as the ledger records it beside the entries. */
export interface ChainHead {
  seq: number;
  hash: string;
}

export interface ChainVerification {
  valid: boolean;
  /** Entries read. */
  length: number;
  /** Hash and seq of the last entry read (the genesis hash and 0 for an empty chain). */
  headHash: string;
  headSeq: number;
  genesisHash: string;
  /** When invalid: the first seq that does not hold. */
  brokenAtSeq?: number;
  /** When invalid: what is wrong and what to do, in a sentence a person can act on. */
  problem?: string;
}

type HashedField = Exclude<keyof AuditEntry, 'hash'>;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** JSON with object keys sorted at every depth, so the same content always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Every field of the entry except `hash`, projected explicitly: a field added to the proto is a
 * compile error here until it is hashed, and store bookkeeping (tenantId, version) never leaks in.
 */
export function hashedFields(entry: AuditEntry): Omit<AuditEntry, 'hash'> {
  const agent = entry.agent ?? { runId: '', task: '', model: '', confirmedBy: '' };
  const body: Record<HashedField, unknown> & Omit<AuditEntry, 'hash'> = {
    seq: entry.seq,
    id: entry.id,
    eventId: entry.eventId,
    at: entry.at,
    action: entry.action,
    operation: entry.operation,
    resourceKind: entry.resourceKind,
    resourceId: entry.resourceId,
    principalKind: entry.principalKind,
    tokenId: entry.tokenId,
    memberId: entry.memberId,
    requestId: entry.requestId,
    idempotencyKey: entry.idempotencyKey,
    agent: { runId: agent.runId, task: agent.task, model: agent.model, confirmedBy: agent.confirmedBy },
    prevHash: entry.prevHash,
  };
  return body;
}

export function canonicalEntry(entry: AuditEntry): string {
  return canonicalJson(hashedFields(entry));
}

export function hashEntry(entry: AuditEntry, prevHash: string): string {
  return sha256(prevHash + canonicalEntry(entry));
}

/** Where each tenant's chain starts; binding the tenant means a chain cannot be passed off as another's. */
export function genesisHash(tenantId: string): string {
  return sha256(`fieldops-audit-genesis:${tenantId}`);
}

interface Broken {
  seq: number;
  problem: string;
}

/** Why the entry at `index` (expected at seq index+1) does not follow the entries before it, or null. */
function checkEntry(
  entries: AuditEntry[],
  index: number,
  entry: AuditEntry,
  expectedPrev: string,
): Broken | null {
  const seq = index + 1;
  if (entry.seq > seq) return missingEntries(seq, entry.seq);
  if (entry.seq !== seq) {
    return {
      seq,
      problem:
        `Entry ${entry.id} has seq ${entry.seq} where seq ${seq} was expected: seq numbers were rewritten or ` +
        `duplicated; compare the entries from seq ${seq} on with a backup of the ledger.`,
    };
  }
  if (entry.prevHash !== expectedPrev) return brokenLink(entries, index, entry, expectedPrev);
  if (hashEntry(entry, entry.prevHash) !== entry.hash) {
    return {
      seq,
      problem:
        `Entry ${entry.id} at seq ${seq} was altered after it was recorded: its hash no longer matches its ` +
        `content; compare it with a backup of the ledger to see which field changed.`,
    };
  }
  return null;
}

function missingEntries(seq: number, foundSeq: number): Broken {
  const range = foundSeq - 1 === seq ? `seq ${seq} is` : `seq ${seq} to ${foundSeq - 1} are`;
  return {
    seq,
    problem:
      `Entry ${range} missing: the chain goes from seq ${seq - 1} straight to seq ${foundSeq}, so entries ` +
      `were removed from the ledger; restore them from a backup and verify again.`,
  };
}

/** The entry's prevHash is not its predecessor's hash: tell a reorder apart from a removal or rewrite. */
function brokenLink(entries: AuditEntry[], index: number, entry: AuditEntry, expectedPrev: string): Broken {
  const seq = index + 1;
  // The entry that was recorded at this place links to the expected hash; find where it went.
  const moved = entries.findIndex((other, at) => at > index && other.prevHash === expectedPrev);
  const cameFrom = entries.findIndex((other, at) => at > index && other.hash === entry.prevHash);
  const elsewhere = moved >= 0 ? moved : cameFrom;
  if (elsewhere >= 0) {
    const place =
      moved >= 0
        ? `the entry recorded at seq ${seq} is now at seq ${moved + 1}`
        : `it was recorded right after the entry now at seq ${cameFrom + 1}`;
    return {
      seq,
      problem:
        `Entry ${entry.id} at seq ${seq} is out of place: ${place}, so entries were reordered (seq numbers ` +
        `swapped); put seq ${seq} and seq ${elsewhere + 1} back in order from a backup.`,
    };
  }
  const predecessor =
    seq === 1 ? "this tenant's genesis hash" : `the hash of entry seq ${seq - 1}, the entry before it`;
  return {
    seq,
    problem:
      `Entry ${entry.id} at seq ${seq} does not link to ${predecessor}: an entry before it was removed, ` +
      `inserted or rewritten with a new hash; compare seq ${Math.max(seq - 1, 1)} and seq ${seq} with a backup.`,
  };
}

/** The head must name the last entry; otherwise entries were cut off the end or the head was forged. */
function checkHead(entries: AuditEntry[], head: ChainHead): Broken | null {
  const last = entries.at(-1);
  const lastSeq = last?.seq ?? 0;
  if (head.seq > lastSeq) {
    return {
      seq: lastSeq + 1,
      problem:
        `The ledger head records seq ${head.seq} but the last entry is seq ${lastSeq}: the newest entries were ` +
        `removed; restore seq ${lastSeq + 1} to ${head.seq} from a backup.`,
    };
  }
  if (head.seq < lastSeq || head.hash !== (last?.hash ?? head.hash)) {
    return {
      seq: lastSeq,
      problem:
        `The ledger head (seq ${head.seq}, hash ${head.hash.slice(0, 12)}…) does not match the last entry ` +
        `(seq ${lastSeq}): the head record was forged or the last entry replaced; compare both with a backup.`,
    };
  }
  return null;
}

/**
 * Checks a tenant's chain given its entries ordered by seq and, when known, the recorded head.
 * Reports the first entry that does not hold; everything after it is unproven.
 */
export function verifyChain(tenantId: string, entries: AuditEntry[], head?: ChainHead): ChainVerification {
  const genesis = genesisHash(tenantId);
  const last = entries.at(-1);
  const result: ChainVerification = {
    valid: true,
    length: entries.length,
    headHash: last?.hash ?? genesis,
    headSeq: last?.seq ?? 0,
    genesisHash: genesis,
  };
  let expectedPrev = genesis;
  for (const [index, entry] of entries.entries()) {
    const broken = checkEntry(entries, index, entry, expectedPrev);
    if (broken) return { ...result, valid: false, brokenAtSeq: broken.seq, problem: broken.problem };
    expectedPrev = entry.hash;
  }
  const brokenHead = head ? checkHead(entries, head) : null;
  if (brokenHead)
    return { ...result, valid: false, brokenAtSeq: brokenHead.seq, problem: brokenHead.problem };
  return result;
}
