// One step of the invoice machine as write ops: the invoice replaced with its new status and
// stamps, and the step's event. Void and settle (the payment that clears the balance) use it.
import { INVOICE_STATUS_MACHINE, type InvoiceTrigger } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { documentStep, type DocumentStep } from '../billing/document-writes.ts';
import type { CrmEventType } from '../events.ts';
import { INVOICE_DOC, type InvoiceDoc } from './invoice.model.ts';

const EVENT_OF: Record<Exclude<InvoiceTrigger, 'issue'>, CrmEventType> = {
  settle: 'invoice.paid',
  void: 'invoice.voided',
};

export type InvoiceStep = DocumentStep<InvoiceDoc>;

export const invoiceStep = (
  doc: InvoiceDoc,
  trigger: Exclude<InvoiceTrigger, 'issue'>,
  stamps: Partial<InvoiceDoc>,
  ctx: RequestContext,
  eventData: Record<string, unknown> = {},
): InvoiceStep =>
  documentStep(
    INVOICE_DOC,
    doc,
    { to: INVOICE_STATUS_MACHINE.triggers[trigger].to, event: EVENT_OF[trigger] },
    stamps,
    ctx,
    eventData,
  );
