import { type RequestContext, nowIso } from '@fieldops/kit';
import type { Doc, DocumentStore, WriteOp } from '@fieldops/kit/store';
import { requireTenantId, unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { billing, common } from '@fieldops/proto';
import { createEffect, eventEffect, updateEffect } from '../effects.ts';
import {
  assertIfMatch,
  compact,
  patched,
  describeChanges,
  diffFields,
  getOrNotFound,
  setFields,
} from '@fieldops/kit/domain';
import { emitCrmEvent, type CrmEventType } from '../events.ts';
import { priceLines, totalsOf } from './line-items.ts';
import { notAmendable, requiredText } from './refusals.ts';

/** A billing document as stored, as far as the shared writes read it. */
export interface BillingDoc extends Doc {
  status: string;
  lines: billing.LineItem[];
  totals: billing.Totals;
}

/** What the shared writes need to know about one kind of billing document. */
export interface BillingDocType<D extends BillingDoc, O extends object> {
  kind: 'proposal' | 'invoice';
  collection: string;
  /** The document's view under its kind: what a write answers and its events carry. */
  outcome(doc: D): O;
  created: CrmEventType;
  updated: CrmEventType;
  /** The view a stale If-Match answers as `current`. */
  view(doc: D): unknown;
  /** Whether PATCH may amend a document in this status (drafts only). */
  amendable(status: string): boolean;
  triggersNow(doc: D): string[];
  /** The facts a create sets and an amendment compares, and which of them it reports in what order. */
  facts(doc: D): Record<string, unknown>;
  changeFields: readonly string[];
}

/** The document `id` of this kind; not_found naming the kind when missing. */
export const loadDocument = <D extends BillingDoc, O extends object>(
  type: BillingDocType<D, O>,
  store: DocumentStore,
  tenantId: string,
  id: string,
): Promise<D> => getOrNotFound<D>(store, type.collection, tenantId, id, type.kind);

/** The Get RPC of a kind: the document as its view, with the triggers legal on it now. */
export function documentReadRpc<D extends BillingDoc, O extends object>(type: BillingDocType<D, O>) {
  return async (
    { store }: { store: DocumentStore },
    req: { id: string },
    ctx: RequestContext,
  ): Promise<O & { legalTriggers: string[] }> => {
    const doc = await loadDocument(type, store, requireTenantId(ctx), req.id);
    return { ...type.outcome(doc), legalTriggers: type.triggersNow(doc) };
  };
}

/**
 * The draft a PATCH amends: found, at the caller's etag, and still a draft. A stale etag is
 * refused first: the caller decided from a version that is no longer current.
 */
async function draftToAmend<D extends BillingDoc, O extends object>(
  type: BillingDocType<D, O>,
  store: DocumentStore,
  tenantId: string,
  req: { id: string; ifMatch: string },
): Promise<D> {
  const doc = await loadDocument(type, store, tenantId, req.id);
  assertIfMatch(req.ifMatch, doc, type.view(doc));
  if (!type.amendable(doc.status)) {
    throw notAmendable(type.kind, doc.id, doc.status, type.triggersNow(doc));
  }
  return doc;
}

// An outcome is a plain object of views ({ proposal } or { invoice }); events take it as their data.
const eventDataOf = (outcome: object): Record<string, unknown> => ({ ...outcome });

/** Insert a new draft, reporting the facts it sets; `willDo` is the rehearsal's sentence. */
export function createDraftPlan<D extends BillingDoc, O extends object>(
  type: BillingDocType<D, O>,
  doc: D,
  ctx: RequestContext,
  willDo: string,
): WritePlan<O> {
  const outcome = type.outcome(doc);
  const changes = setFields(type.facts(doc), type.changeFields);
  return {
    ops: [
      { op: 'insert', collection: type.collection, doc },
      emitCrmEvent(ctx, type.created, { kind: type.kind, id: doc.id }, eventDataOf(outcome)),
    ],
    result: outcome,
    created: true,
    rehearsal: {
      willDo,
      effects: [createEffect(type.kind, doc.id, changes), eventEffect(type.created, doc.id)],
      totalCents: doc.totals.totalCents,
    },
  };
}

/** Replace a draft with its amended `next`; `reported` are the changes the event and rehearsal list. */
function amendDraftPlan<D extends BillingDoc, O extends object>(
  type: BillingDocType<D, O>,
  doc: D,
  next: D,
  reported: common.FieldChange[],
  ctx: RequestContext,
  willDo: string,
): WritePlan<O> {
  const outcome = type.outcome(next);
  return {
    ops: [
      { op: 'replace', collection: type.collection, doc: next, expectedVersion: doc.version },
      emitCrmEvent(ctx, type.updated, { kind: type.kind, id: doc.id }, { changes: reported, ...outcome }),
    ],
    result: outcome,
    created: false,
    rehearsal: {
      willDo,
      effects: [updateEffect(type.kind, doc.id, reported), eventEffect(type.updated, doc.id)],
      totalCents: next.totals.totalCents,
    },
  };
}

/** Nothing would change: answered as already there (replayed); nothing stored or emitted. */
function unchangedDocument<D extends BillingDoc, O extends object>(
  type: BillingDocType<D, O>,
  doc: D,
): WritePlan<O> {
  return unchangedPlan(
    type.outcome(doc),
    `Nothing would change: ${type.kind} ${doc.id} already has these values.`,
  );
}

/** What a PATCH may send to a draft of either kind, as far as both amend it alike. */
export interface DraftPatch {
  title?: string | undefined;
  lines: billing.LineInput[];
  hasLines: boolean;
  notes?: string | undefined;
  recipientEmail?: string | undefined;
}

type AmendableDoc = BillingDoc & { title: string; notes?: string; recipientEmail?: string };

/**
 * The next version of a draft: title, lines with their totals, notes and recipient amended alike
 * for both kinds, then the kind's own fields (read after the title, so refusals keep their order).
 */
export function amendedDraft<D extends AmendableDoc>(doc: D, req: DraftPatch, own: () => Partial<D>): D {
  const lines = req.hasLines ? priceLines(req.lines) : doc.lines;
  return compact({
    ...doc,
    title: req.title === undefined ? doc.title : requiredText('title', req.title),
    lines,
    totals: totalsOf(lines, doc.totals.currency),
    notes: patched(doc.notes, req.notes),
    recipientEmail: patched(doc.recipientEmail, req.recipientEmail),
    ...own(),
    version: doc.version + 1,
    updatedAt: nowIso(),
  });
}

/** A PATCH of a draft as its kind words it: the amended draft and the sentence. */
export interface DraftAmendment<D> {
  /** The draft with the request applied, its version and updatedAt moved on. */
  amend(doc: D): D;
  /** The rehearsal's sentence; `changes` names what changed ("title, notes", or "lines"). */
  willDo(doc: D, changes: string): string;
}

/**
 * PATCH of a draft: found at the caller's etag and still a draft, amended, and answered as
 * unchanged when neither a reported fact nor a line differs. A change of lines alone is reported
 * as the field `lines`.
 */
export async function planAmendDraft<D extends BillingDoc, O extends object>(
  type: BillingDocType<D, O>,
  store: DocumentStore,
  tenantId: string,
  req: { id: string; ifMatch: string; hasLines: boolean },
  ctx: RequestContext,
  amendment: DraftAmendment<D>,
): Promise<WritePlan<O>> {
  const doc = await draftToAmend(type, store, tenantId, req);
  const next = amendment.amend(doc);
  const changes = diffFields(type.facts(doc), type.facts(next), type.changeFields);
  const linesChanged = req.hasLines && JSON.stringify(next.lines) !== JSON.stringify(doc.lines);
  if (changes.length === 0 && !linesChanged) return unchangedDocument(type, doc);
  const reported = changes.length ? changes : [{ field: 'lines' }];
  return amendDraftPlan(type, doc, next, reported, ctx, amendment.willDo(doc, describeChanges(reported)));
}

export interface DocumentStep<D> {
  next: D;
  ops: WriteOp[];
  effects: common.Effect[];
}

/**
 * One step of a document's status machine: the document replaced with status `to` and the step's
 * stamps, and the step's `event` (carrying `eventData`, from and to, and the new view).
 */
export function documentStep<D extends BillingDoc, O extends object>(
  type: BillingDocType<D, O>,
  doc: D,
  move: { to: D['status']; event: CrmEventType },
  stamps: Partial<D>,
  ctx: RequestContext,
  eventData: Record<string, unknown> = {},
): DocumentStep<D> {
  const { to, event } = move;
  const next: D = compact({ ...doc, ...stamps, status: to, version: doc.version + 1, updatedAt: nowIso() });
  return {
    next,
    ops: [
      { op: 'replace', collection: type.collection, doc: next, expectedVersion: doc.version },
      emitCrmEvent(
        ctx,
        event,
        { kind: type.kind, id: doc.id },
        { ...eventData, from: doc.status, to, ...type.outcome(next) },
      ),
    ],
    effects: [
      updateEffect(type.kind, doc.id, [{ field: 'status', from: doc.status, to }]),
      eventEffect(event, doc.id),
    ],
  };
}
