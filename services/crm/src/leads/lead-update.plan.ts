import {
  checkLengths,
  describeChanges,
  diffFields,
  assertIfMatch,
  compact,
  emailKeyOf,
  patched,
  requiredName,
  getOrNotFound,
} from '@fieldops/kit/domain';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { crm } from '@fieldops/proto';
import { LEADS } from '../collections.ts';
import { findCustomerMatch } from '../customers/customer.model.ts';
import { eventEffect, updateEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { leadScore } from './lead-score.ts';
import { LEAD_FIELD_LIMITS, LEAD_STATUSES, LEAD_STATUS_MACHINE } from '@fieldops/contracts';
import type { LeadStatus } from '@fieldops/contracts';
import { LEAD_CHANGE_FIELDS, toLeadView } from './lead.model.ts';
import type { LeadDoc } from './lead.model.ts';

export async function planUpdateLead(
  store: DocumentStore,
  tenantId: string,
  req: crm.UpdateLeadRequest,
  ctx: RequestContext,
): Promise<WritePlan<crm.Lead>> {
  checkLengths(LEAD_FIELD_LIMITS, req);
  const doc = await getOrNotFound<LeadDoc>(store, LEADS, tenantId, req.id, 'lead');
  // Converted is refused whatever the etag says; a stale etag is reported before the machine is
  // asked, because the caller chose its move from a state that is no longer current.
  refuseConversion(doc, req.status);
  assertIfMatch(req.ifMatch, doc, toLeadView(doc));
  const status = requestedStatus(doc, req.status);
  const next = await amended(store, doc, req, status);
  const changes = diffFields(doc, next, LEAD_CHANGE_FIELDS);
  if (changes.length === 0) return unchanged(doc);
  await assertNoOtherOpenLead(store, next);

  const lead = toLeadView(next);
  return {
    ops: [
      { op: 'replace', collection: LEADS, doc: next, expectedVersion: doc.version },
      emitCrmEvent(ctx, 'lead.updated', { kind: 'lead', id: doc.id }, { changes, lead }),
    ],
    result: lead,
    created: false,
    rehearsal: {
      willDo: `Update lead ${doc.id}: ${describeChanges(changes)}.`,
      effects: [updateEffect('lead', doc.id, changes), eventEffect('lead.updated', doc.id)],
    },
  };
}

/** Spec: PATCH with status Converted is always refused; conversion is its own operation. */
function refuseConversion(doc: LeadDoc, sent: string | undefined): void {
  if (sent !== LEAD_STATUS_MACHINE.afterConversion) return;
  throw new AppError(
    'conflict',
    `A lead becomes ${sent} only through its own operation, POST /leads/${doc.id}/convert, which also creates the customer and the opening deal; PATCH cannot set it.`,
    { legalTransitions: LEAD_STATUS_MACHINE.next(doc.status), status: doc.status },
  );
}

/** The status after the PATCH, or the refusal the spec asks for (409 with the legal moves). */
function requestedStatus(doc: LeadDoc, sent: string | undefined): LeadStatus {
  if (sent === undefined || sent === doc.status) return doc.status;
  const legalTransitions = LEAD_STATUS_MACHINE.next(doc.status);
  if (!LEAD_STATUS_MACHINE.is(sent)) {
    throw new AppError('field_invalid_enum', `status must be one of ${LEAD_STATUSES.join(', ')}.`, {
      field: 'status',
      allowed: [...LEAD_STATUSES],
    });
  }
  if (!LEAD_STATUS_MACHINE.canMove(doc.status, sent)) {
    const legal = legalTransitions.length ? legalTransitions.join(', ') : 'none';
    throw new AppError(
      'conflict',
      `A lead cannot move from ${doc.status} to ${sent}; from ${doc.status} it can move to: ${legal}.`,
      { legalTransitions, status: doc.status },
    );
  }
  return sent;
}

async function amended(
  store: DocumentStore,
  doc: LeadDoc,
  req: crm.UpdateLeadRequest,
  status: LeadStatus,
): Promise<LeadDoc> {
  const email = patched(doc.email, req.email);
  const emailKey = emailKeyOf(email);
  const emailChanged = emailKey !== emailKeyOf(doc.email);
  const fields = {
    name: req.name === undefined ? doc.name : requiredName(req.name),
    email,
    phone: patched(doc.phone, req.phone),
    message: patched(doc.message, req.message),
    source: doc.source,
    ownerId: patched(doc.ownerId, req.ownerId),
  };
  return compact({
    ...doc,
    ...fields,
    status,
    score: leadScore(fields),
    // The dedupe key follows the status: a closed lead no longer blocks a new capture.
    openEmailKey: LEAD_STATUS_MACHINE.isIn('open', status) ? emailKey : undefined,
    customerMatch: emailChanged ? await matchFor(store, doc.tenantId, emailKey) : doc.customerMatch,
    version: doc.version + 1,
    updatedAt: nowIso(),
  });
}

const matchFor = async (
  store: DocumentStore,
  tenantId: string,
  emailKey: string | undefined,
): Promise<crm.CustomerMatch | undefined> =>
  emailKey ? findCustomerMatch(store, tenantId, emailKey) : undefined;

/**
 * An email change or a reopen can give this lead the open-email key another open lead holds.
 * The unique key would refuse the commit anyway; checking first gives the caller a sentence and
 * the other lead's id instead of a bare conflict.
 */
async function assertNoOtherOpenLead(store: DocumentStore, next: LeadDoc): Promise<void> {
  if (!next.openEmailKey) return;
  const other = await store.findOne<LeadDoc>(LEADS, next.tenantId, { openEmailKey: next.openEmailKey });
  if (!other || other.id === next.id) return;
  throw new AppError(
    'conflict',
    `Another open lead (${other.id}) already has this email; only one open lead per email is kept. Close or amend that lead first.`,
    { field: 'email', existingLeadId: other.id },
  );
}

/** Nothing would change: answered as already there (replayed), and nothing is stored or emitted. */
function unchanged(doc: LeadDoc): WritePlan<crm.Lead> {
  return unchangedPlan(toLeadView(doc), `Nothing would change: lead ${doc.id} already has these values.`);
}
