import { type RequestContext, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { crm } from '@fieldops/proto';
import { INBOUND_MESSAGES, LEADS } from '../collections.ts';
import { eventEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import type { LeadStatement, PersonaReader } from '../qualification/persona-reader.port.ts';
import { INBOUND_MESSAGES_SHOWN, type InboundMessageDoc } from './inbound-messages.ts';
import type { LeadDoc } from './lead.model.ts';
import { getOrNotFound } from '@fieldops/kit/domain';

export async function planQualifyLead(
  store: DocumentStore,
  reader: PersonaReader,
  tenantId: string,
  req: crm.QualifyLeadRequest,
  ctx: RequestContext,
): Promise<WritePlan<crm.LeadQualification>> {
  const lead = await getOrNotFound<LeadDoc>(store, LEADS, tenantId, req.id, 'lead');
  const reading = await reader.read(await statementsOf(store, lead));
  const qualification: crm.LeadQualification = {
    leadId: lead.id,
    persona: reading.persona,
    facts: reading.facts.map((fact) => ({ ...fact })),
    basis: reading.basis,
    qualifier: reader.name,
    readAt: nowIso(),
  };
  return {
    ops: [emitCrmEvent(ctx, 'lead.qualified', { kind: 'lead', id: lead.id }, { qualification })],
    result: qualification,
    created: false,
    rehearsal: {
      willDo: `Read a persona for lead ${lead.id} from ${reading.facts.length} statement(s); nothing is stored on the lead.`,
      effects: [eventEffect('lead.qualified', lead.id)],
    },
  };
}

/**
 * Everything the lead stated, oldest first: each inbound message, and the lead's message when it
 * was amended since (the capture's own message is already the first inbound one). The source is
 * left out: the business records it, the lead never stated it.
 */
async function statementsOf(store: DocumentStore, lead: LeadDoc): Promise<LeadStatement[]> {
  const messages = await store.find<InboundMessageDoc>(
    INBOUND_MESSAGES,
    lead.tenantId,
    { leadId: lead.id },
    { sort: { field: 'receivedAt', direction: 'asc' }, limit: INBOUND_MESSAGES_SHOWN },
  );
  const statements: LeadStatement[] = messages.map((message) => ({
    field: 'inbound_message',
    ref: message.id,
    text: message.body,
  }));
  if (lead.message && !messages.some((message) => message.body === lead.message)) {
    statements.push({ field: 'message', text: lead.message });
  }
  return statements;
}
