// Proposals (spec: "Proposals and invoices", Operations left open 1; ENDPOINTS rows 50–54).
// Served by crm.ProposalService. Viewing, signing and declining are the customer's own acts
// through the link the send email carries, never an API call.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { PROPOSAL_STATUSES, PROPOSAL_STATUS_MACHINE } from '@fieldops/contracts';
import { z } from 'zod';
import { billingWriteResult, type BillingDocument } from '../../endpoint/billing-documents.ts';
import { lineItem, totals } from '../../endpoint/billing.schemas.ts';

export const validUntil = z.iso
  .datetime({ offset: true })
  .describe('Until when the customer may sign; in the future. Default when sent: 30 days after sending.');

export const proposalSchema = z
  .object({
    id: z.string(),
    customerId: z.string(),
    dealId: z.string().optional(),
    title: z.string(),
    lines: z.array(lineItem),
    totals,
    status: z.enum(PROPOSAL_STATUSES),
    notes: z.string().optional(),
    recipientEmail: z.string().optional(),
    validUntil: z.string().optional(),
    sentAt: z.string().optional(),
    viewedAt: z.string().optional(),
    signature: z
      .object({
        signerName: z.string(),
        signedAt: z.string(),
        ip: z.string().describe('The client address the signature came from, kept as evidence.'),
        userAgent: z.string().describe('The browser the signature came from, kept as evidence.'),
      })
      .partial()
      .optional(),
    declinedAt: z.string().optional(),
    declineReason: z.string().optional().describe("The customer's own words."),
    withdrawnAt: z.string().optional(),
    expiredAt: z.string().optional(),
    etag: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    opId: z.string().optional(),
  })
  .meta({ id: 'Proposal' });

export const PROPOSAL: BillingDocument = {
  name: 'proposal',
  path: '/proposals',
  tag: 'Proposals',
  schema: proposalSchema,
  moves: PROPOSAL_STATUS_MACHINE.moves,
};

export const proposalResult = (write: { proposal?: object } & Parameters<typeof billingWriteResult>[2]) =>
  billingWriteResult(PROPOSAL, write.proposal, write);
