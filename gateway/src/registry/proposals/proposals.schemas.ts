// Proposals (spec: "Proposals and invoices", Operations left open 1; ENDPOINTS rows 50–54).
// Served by crm.ProposalService. Viewing, signing and declining are the customer's own acts
// through the link the send email carries, never an API call.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { PROPOSAL_STATUS_MACHINE } from '@fieldops/contracts';
import { z } from 'zod';
import { billingWriteResult, type BillingDocument } from '../../endpoint/billing-documents.ts';
import { proposalSchema } from './proposals.gen.ts';

export const validUntil = z.iso
  .datetime({ offset: true })
  .describe('Until when the customer may sign; in the future. Default when sent: 30 days after sending.');

// The proposal's shape is derived from billing.proto (npm run gen); what differs over HTTP is here.
export { proposalSchema };

export const PROPOSAL: BillingDocument = {
  name: 'proposal',
  path: '/proposals',
  tag: 'Proposals',
  schema: proposalSchema,
  moves: PROPOSAL_STATUS_MACHINE.moves,
};

export const proposalResult = (write: { proposal?: object } & Parameters<typeof billingWriteResult>[2]) =>
  billingWriteResult(PROPOSAL, write.proposal, write);
