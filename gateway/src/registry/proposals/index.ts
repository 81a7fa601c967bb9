// Proposals (spec: "Proposals and invoices", Operations left open 1; ENDPOINTS rows 50–54).
// Served by crm.ProposalService. Viewing, signing and declining are the customer's own acts
// through the link the send email carries, never an API call.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listProposals, createProposal } from './proposals.js';
import { getProposal, updateProposal } from './proposals.id.js';
import { sendProposal } from './proposals.id.send.js';
import { withdrawProposal } from './proposals.id.withdraw.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const proposalEndpoints: EndpointDef[] = [
  listProposals,
  getProposal,
  createProposal,
  updateProposal,
  sendProposal,
  withdrawProposal,
];
