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

export const INVOICE_STATUSES = ['draft', 'issued', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_TRIGGERS = ['issue', 'settle', 'void'] as const;
export type InvoiceTrigger = (typeof INVOICE_TRIGGERS)[number];

export const INVOICE_STATUS_MACHINE = {
  initial: 'draft',
  /** Each trigger: the statuses it may fire from, and the one status it leads to. */
  triggers: {
    issue: { from: ['draft'], to: 'issued' },
    settle: { from: ['issued'], to: 'paid' },
    void: { from: ['draft', 'issued'], to: 'void' },
  },
  /** Statuses in which PATCH may change the invoice. */
  amendable: ['draft'],
  /** Statuses in which a payment may be recorded against the invoice. */
  payable: ['issued'],
  /** Triggers only the platform fires (a recorded payment settles); no endpoint reaches them. */
  byPlatform: ['settle'],
} as const satisfies {
  initial: InvoiceStatus;
  triggers: Record<InvoiceTrigger, { from: readonly InvoiceStatus[]; to: InvoiceStatus }>;
  amendable: readonly InvoiceStatus[];
  payable: readonly InvoiceStatus[];
  byPlatform: readonly InvoiceTrigger[];
};

export const isInvoiceStatus = (value: string): value is InvoiceStatus =>
  (INVOICE_STATUSES as readonly string[]).includes(value);

/** Whether `trigger` has an edge out of `status`. */
export const canFireInvoice = (status: string, trigger: InvoiceTrigger): boolean =>
  (INVOICE_STATUS_MACHINE.triggers[trigger].from as readonly string[]).includes(status);

/** The triggers with an edge out of `status`, in declaration order. */
export const invoiceLegalTriggers = (status: string): InvoiceTrigger[] =>
  INVOICE_TRIGGERS.filter((trigger) => canFireInvoice(status, trigger));

export const isAmendableInvoice = (status: string): boolean =>
  (INVOICE_STATUS_MACHINE.amendable as readonly string[]).includes(status);

export const isPayableInvoice = (status: string): boolean =>
  (INVOICE_STATUS_MACHINE.payable as readonly string[]).includes(status);

/** The machine as status → reachable statuses (the shape x-state-machine publishes as `moves`). */
export const INVOICE_STATUS_MOVES: Readonly<Record<InvoiceStatus, readonly InvoiceStatus[]>> =
  Object.fromEntries(
    INVOICE_STATUSES.map((status) => [
      status,
      invoiceLegalTriggers(status).map((trigger) => INVOICE_STATUS_MACHINE.triggers[trigger].to),
    ]),
  ) as Record<InvoiceStatus, InvoiceStatus[]>;
