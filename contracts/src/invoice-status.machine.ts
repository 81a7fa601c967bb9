// The invoice status machine, as data. The spec says an invoice moves through a declared
// transition table, that a draft asks nobody for anything, that issuing puts a live payment page in
// front of the customer, and that paying and refunding are human acts outside the API. Ours:
// - draft is the only amendable status (PATCH /invoices/:id).
// - issue (POST /invoices/:id/issue, two-phase confirmation) emails the customer the payment page.
// - Payments are records, not states: a member records each payment received in the portal (a
//   human act); a partial payment leaves the invoice issued with a smaller balance, and the payment
//   that brings the balance to zero fires settle (issued → paid).
// - void: the business cancels an invoice nobody has paid anything on (a draft, or an issued one
//   with no payment); its payment page stops working. Money received is never undone by the API.
// - paid and void are final.

import { defineMachine, type StateOf, type TriggerOf } from './define-machine.ts';

export const INVOICE_STATUS_MACHINE = defineMachine(
  {
    states: ['draft', 'issued', 'paid', 'void'],
    initial: 'draft',
    triggers: {
      issue: { from: ['draft'], to: 'issued' },
      settle: { from: ['issued'], to: 'paid' },
      void: { from: ['draft', 'issued'], to: 'void' },
    },
  },
  {
    /** Statuses in which PATCH may change the invoice. */
    amendable: ['draft'],
    /** Statuses in which a payment may be recorded against the invoice. */
    payable: ['issued'],
    /** Triggers only the platform fires (a recorded payment settles); no endpoint reaches them. */
    byPlatform: ['settle'],
  },
);
export type InvoiceStatus = StateOf<typeof INVOICE_STATUS_MACHINE>;
export type InvoiceTrigger = TriggerOf<typeof INVOICE_STATUS_MACHINE>;
export const INVOICE_STATUSES = INVOICE_STATUS_MACHINE.states;
