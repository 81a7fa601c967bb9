// Recording a payment received against an issued invoice. Paying is a human act outside the API
// (spec: "Refunds and payment of invoices are not part of the API"), so no endpoint reaches this:
// it is called by the platform's own side — a member recording a bank transfer in the portal, or
// the payment provider's callback — and refused for an API token or a customer link. Payments are
// records, not states: a partial payment leaves the invoice issued with a smaller balance; the
// payment that clears the balance fires settle (issued → paid). Each payment emits
// payment.received (the spec's "payment received") and asks the deal to move to invoiced, which
// its machine allows from won onwards and leaves alone when the invoice's issue already moved it.
import { INVOICE_STATUS_MACHINE } from '@fieldops/contracts';
import { type RequestContext, AppError, newId, nowIso } from '@fieldops/kit';
import { actorOf, cleanText, compact, getOrNotFound } from '@fieldops/kit/domain';
import type { WriteOp } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { planDealMove } from '../billing/deal-moves.ts';
import { formatMoney } from '../billing/money-format.ts';
import { illegalTrigger, isoOrUndefined } from '../billing/refusals.ts';
import { INVOICES } from '../collections.ts';
import { createEffect, eventEffect, updateEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { invoiceStep } from './invoice-move.ts';
import {
  balanceOf,
  invoiceTriggersNow,
  toInvoiceView,
  type InvoiceDoc,
  type InvoiceOutcome,
} from './invoice.model.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';

export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'check', 'other'] as const;
/** Who may record a payment: a member in the portal, or the platform (the payment provider's side). */
export const PAYMENT_RECORDERS = ['session', 'system'] as const;
export const MAX_REFERENCE = 200;
/** A receipt stamped a little ahead of our clock is clock skew, not a payment from the future. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

export function assertMayRecordPayment(ctx: RequestContext): void {
  const kind = ctx.principal?.kind ?? '';
  if ((PAYMENT_RECORDERS as readonly string[]).includes(kind)) return;
  throw new AppError(
    'role_denied',
    'Payments are recorded by a member in the portal or by the payment provider, never through the API.',
    { required: { action: 'update', kind: 'deal' } },
  );
}

function checkPayment(doc: InvoiceDoc, req: billing.RecordPaymentRequest): { receivedAt: string } {
  if (!(PAYMENT_METHODS as readonly string[]).includes(req.method)) {
    throw new AppError('field_invalid_enum', `method must be one of: ${PAYMENT_METHODS.join(', ')}.`, {
      field: 'method',
      allowed: [...PAYMENT_METHODS],
    });
  }
  const balance = balanceOf(doc);
  if (!Number.isSafeInteger(req.amountCents) || req.amountCents <= 0 || req.amountCents > balance) {
    throw new AppError(
      'field_invalid',
      `amountCents must be a whole number of cents from 1 to the balance of ${balance}; an overpayment is settled outside the platform.`,
      { field: 'amountCents', balanceCents: balance },
    );
  }
  if ((req.reference?.length ?? 0) > MAX_REFERENCE) {
    throw new AppError('field_too_long', `reference must be at most ${MAX_REFERENCE} characters.`, {
      field: 'reference',
      maxLength: MAX_REFERENCE,
    });
  }
  const receivedAt = isoOrUndefined('receivedAt', req.receivedAt) ?? nowIso();
  if (Date.parse(receivedAt) > Date.now() + CLOCK_SKEW_MS) {
    throw new AppError('field_invalid', 'receivedAt must not be in the future.', { field: 'receivedAt' });
  }
  return { receivedAt };
}

export async function planRecordPayment(
  { store }: BillingDeps,
  tenantId: string,
  req: billing.RecordPaymentRequest,
  ctx: RequestContext,
): Promise<WritePlan<InvoiceOutcome>> {
  const doc = await getOrNotFound<InvoiceDoc>(store, INVOICES, tenantId, req.invoiceId, 'invoice');
  if (!INVOICE_STATUS_MACHINE.isIn('payable', doc.status)) {
    throw illegalTrigger('invoice', doc.id, doc.status, 'payment', invoiceTriggersNow(doc));
  }
  const { receivedAt } = checkPayment(doc, req);
  const now = nowIso();
  const payment: billing.Payment = compact({
    id: newId('pay'),
    amountCents: req.amountCents,
    method: req.method,
    receivedAt,
    reference: cleanText(req.reference),
    recordedBy: actorOf(ctx),
    recordedAt: now,
  });
  const paidCents = doc.paidCents + payment.amountCents;
  const recorded = { payments: [...doc.payments, payment], paidCents };
  const settles = paidCents === doc.totals.totalCents;
  const step = settles ? invoiceStep(doc, 'settle', { ...recorded, paidAt: now }, ctx) : undefined;
  const next: InvoiceDoc = step?.next ?? { ...doc, ...recorded, version: doc.version + 1, updatedAt: now };
  const deal = await planDealMove(store, ctx, {
    dealId: doc.dealId,
    trigger: 'invoice',
    cause: `payment ${payment.id} received on invoice ${doc.id}`,
  });
  const invoice = toInvoiceView(next);
  const own: WriteOp[] = step
    ? step.ops
    : [{ op: 'replace', collection: INVOICES, doc: next, expectedVersion: doc.version }];
  return {
    ops: [
      ...own,
      emitCrmEvent(
        ctx,
        'payment.received',
        { kind: 'invoice', id: doc.id },
        { payment, invoiceId: doc.id, balanceCents: invoice.balanceCents, dealMove: deal?.move, invoice },
      ),
      ...(deal?.ops ?? []),
    ],
    result: { invoice, dealMove: deal?.move },
    created: false,
    rehearsal: {
      willDo: `Record ${formatMoney(payment.amountCents, doc.totals.currency)} received on invoice ${doc.id}${settles ? `, which settles it (${INVOICE_STATUS_MACHINE.triggers.settle.to})` : ''}.`,
      effects: [
        createEffect('payment', payment.id, [{ field: 'amountCents', to: String(payment.amountCents) }]),
        ...(step?.effects ?? [
          updateEffect('invoice', doc.id, [{ field: 'paidCents', to: String(paidCents) }]),
        ]),
        eventEffect('payment.received', doc.id),
        ...(deal?.effects ?? []),
      ],
      totalCents: payment.amountCents,
    },
  };
}
