// Planning POST /invoices/:id/issue: the step that puts a live payment page in front of the
// customer. In one commit the invoice becomes issued with the tenant's next number, the email with
// the payment-page link is queued, invoice.issued is emitted and the deal, when there is one, moves
// to invoiced as its machine allows. The gateway asks for confirmation first, showing this plan's
// rehearsal (masked recipient, total).
import { BILLING_REASON_MAX, INVOICE_STATUS_MACHINE } from '@fieldops/contracts';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { planDealMove } from '../billing/deal-moves.ts';
import { formatMoney } from '../billing/money-format.ts';
import { maskEmail, recipientOf } from '../billing/recipient.ts';
import { illegalTrigger } from '../billing/refusals.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';
import { newLinkNonce, signLink } from '../client-links/link-token.ts';
import { INVOICES } from '../collections.ts';
import { createEffect, eventEffect, updateEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { checkLengths, cleanText, getOrNotFound } from '@fieldops/kit/domain';
import { CLIENT_INVOICE_PATH, invoiceMail, linkPathOf } from '../mail/mail-texts.ts';
import { queueMail } from '../mail/outbound-message.ts';
import { nextInvoiceNumber } from './invoice-number.ts';
import { invoiceTriggersNow, toInvoiceView, type InvoiceDoc, type InvoiceOutcome } from './invoice.model.ts';

/** How long the payment-page link works: long enough for a slow payer, then a new link is sent. */
export const INVOICE_LINK_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function planIssueInvoice(
  { store, keys }: BillingDeps,
  tenantId: string,
  req: billing.IssueInvoiceRequest,
  ctx: RequestContext,
): Promise<WritePlan<InvoiceOutcome>> {
  checkLengths({ message: BILLING_REASON_MAX }, req);
  const doc = await getOrNotFound<InvoiceDoc>(store, INVOICES, tenantId, req.id, 'invoice');
  const issued = INVOICE_STATUS_MACHINE.triggers.issue.to;
  // Spec: a trigger whose destination is already reached answers 200 replayed; no second email.
  if (doc.status === issued) return alreadyIssued(doc);
  if (!INVOICE_STATUS_MACHINE.canFire(doc.status, 'issue')) {
    throw illegalTrigger('invoice', doc.id, doc.status, 'issue', invoiceTriggersNow(doc));
  }
  assertIssuable(doc);
  const to = await recipientOf(store, doc, 'invoice');
  const counter = await nextInvoiceNumber(store, tenantId);
  const nonce = newLinkNonce();
  const token = signLink(keys.current, {
    tenantId,
    kind: 'invoice',
    id: doc.id,
    nonce,
    expiresAt: Date.now() + INVOICE_LINK_DAYS * DAY_MS,
  });
  const now = nowIso();
  const next: InvoiceDoc = {
    ...doc,
    status: issued,
    number: counter.number,
    issuedAt: now,
    linkNonce: nonce,
    version: doc.version + 1,
    updatedAt: now,
  };
  const mail = queueMail(ctx, tenantId, {
    to,
    ...invoiceMail({
      ...doc.totals,
      number: counter.number,
      title: doc.title,
      dueDate: doc.dueDate,
      note: cleanText(req.message),
    }),
    linkPath: linkPathOf(CLIENT_INVOICE_PATH, token),
    about: { kind: 'invoice', id: doc.id },
  });
  const deal = await planDealMove(store, ctx, {
    dealId: doc.dealId,
    trigger: 'invoice',
    cause: `invoice ${doc.id} issued`,
  });
  const invoice = toInvoiceView(next);
  const masked = maskEmail(to);
  const total = formatMoney(doc.totals.totalCents, doc.totals.currency);
  return {
    ops: [
      { op: 'replace', collection: INVOICES, doc: next, expectedVersion: doc.version },
      counter.op,
      mail.op,
      // The event names the recipient masked and never carries the link: the link is the customer's.
      emitCrmEvent(
        ctx,
        'invoice.issued',
        { kind: 'invoice', id: doc.id },
        { invoice, recipientMasked: masked, messageId: mail.doc.id, dealMove: deal?.move },
      ),
      ...(deal?.ops ?? []),
    ],
    result: { invoice, dealMove: deal?.move },
    created: false,
    rehearsal: {
      willDo: `Issue invoice ${doc.id} "${doc.title}" as ${counter.number} for ${total} and email ${masked} a live payment page${deal?.summary ? `, and ${deal.summary}` : ''}. The customer can pay from then on; an issued invoice can only be voided, not unsent.`,
      effects: [
        updateEffect('invoice', doc.id, [
          { field: 'status', from: doc.status, to: issued },
          { field: 'number', to: counter.number },
        ]),
        createEffect('outbound_message', mail.doc.id, [{ field: 'to', to: masked }]),
        eventEffect('invoice.issued', doc.id),
        ...(deal?.effects ?? []),
      ],
      recipientMasked: masked,
      totalCents: doc.totals.totalCents,
    },
  };
}

function assertIssuable(doc: InvoiceDoc): void {
  if (doc.lines.length > 0 && doc.totals.totalCents > 0) return;
  throw new AppError(
    'conflict',
    `Invoice ${doc.id} bills nothing (${doc.lines.length} line(s), total ${doc.totals.totalCents}); add priced lines (PATCH lines) before issuing.`,
    { field: 'lines', status: doc.status, legalTriggers: invoiceTriggersNow(doc) },
  );
}

function alreadyIssued(doc: InvoiceDoc): WritePlan<InvoiceOutcome> {
  return unchangedPlan(
    { invoice: toInvoiceView(doc) },
    `Nothing would happen: invoice ${doc.id} was already issued as ${doc.number} on ${doc.issuedAt}; no second email.`,
  );
}
