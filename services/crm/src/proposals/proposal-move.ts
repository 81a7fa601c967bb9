// One step of the proposal machine as write ops: the proposal replaced with its new status and
// stamps, and the step's event. Withdraw and the customer's acts (view, sign, decline, and the
// expiry their use records) are all built from this.
import { PROPOSAL_STATUS_MACHINE, type ProposalTrigger } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { documentStep, type DocumentStep } from '../billing/document-writes.ts';
import type { CrmEventType } from '../events.ts';
import { PROPOSAL_DOC, type ProposalDoc } from './proposal.model.ts';

const EVENT_OF: Record<Exclude<ProposalTrigger, 'send'>, CrmEventType> = {
  view: 'proposal.viewed',
  sign: 'proposal.signed',
  decline: 'proposal.declined',
  expire: 'proposal.expired',
  withdraw: 'proposal.withdrawn',
};

export type ProposalStep = DocumentStep<ProposalDoc>;

export const proposalStep = (
  doc: ProposalDoc,
  trigger: Exclude<ProposalTrigger, 'send'>,
  stamps: Partial<ProposalDoc>,
  ctx: RequestContext,
  eventData: Record<string, unknown> = {},
): ProposalStep =>
  documentStep(
    PROPOSAL_DOC,
    doc,
    { to: PROPOSAL_STATUS_MACHINE.triggers[trigger].to, event: EVENT_OF[trigger] },
    stamps,
    ctx,
    eventData,
  );
