import type { RequestContext } from '@fieldops/kit';
import type { DocumentStore, Filter } from '@fieldops/kit/store';
import { requireTenantId, writeRpc, writeRpcOf } from '@fieldops/kit/write';
import { crm } from '@fieldops/proto';
import { LEADS } from '../collections.ts';
import { cleanText, itemJson, listRpcOf, NEWEST_FIRST, getOrNotFound } from '@fieldops/kit/domain';
import { listInboundMessages } from './inbound-messages.ts';
import { planConvertLead } from './lead-convert.plan.ts';
import { planCreateLead } from './lead-create.plan.ts';
import { planQualifyLead } from './lead-qualify.plan.ts';
import type { PersonaReader } from '../qualification/persona-reader.port.ts';
import { LEAD_STATUS_MACHINE } from '@fieldops/contracts';
import { planUpdateLead } from './lead-update.plan.ts';
import { toLeadView, type LeadDoc } from './lead.model.ts';

/** Fields q searches (spec: free text over name, email, phone, message across the whole inbox). */
const LEAD_SEARCH_FIELDS = ['name', 'email', 'phone', 'message'] as const;

function leadFilter(req: crm.ListLeadsRequest): Filter {
  const filter: Filter = {};
  if (req.status) filter['status'] = req.status;
  if (req.ownerId) filter['ownerId'] = req.ownerId;
  const q = cleanText(req.q);
  if (q) filter.$or = LEAD_SEARCH_FIELDS.map((field) => ({ [field]: { $contains: q } }));
  return filter;
}

/** A lead in items_json; one function for the process, so the store remembers its renderings. */
const LEAD_JSON = itemJson(toLeadView, crm.Lead);

/** Newest first; keyset paging (the store breaks createdAt ties by id). */
export const listLeads = listRpcOf(LEADS, { filter: leadFilter, sort: NEWEST_FIRST }, toLeadView, LEAD_JSON);

export async function getLead(
  store: DocumentStore,
  req: crm.GetLeadRequest,
  ctx: RequestContext,
): Promise<crm.LeadDetail> {
  const tenantId = requireTenantId(ctx);
  const doc = await getOrNotFound<LeadDoc>(store, LEADS, tenantId, req.id, 'lead');
  return {
    lead: toLeadView(doc),
    inboundMessages: await listInboundMessages(store, tenantId, doc.id),
    nextStatuses: LEAD_STATUS_MACHINE.next(doc.status),
    convertible: LEAD_STATUS_MACHINE.isIn('convertibleFrom', doc.status),
  };
}

export const createLead = writeRpcOf('createLead', 'lead', planCreateLead);

export const updateLead = writeRpcOf('updateLead', 'lead', planUpdateLead);

/** POST /leads/:id/convert: a customer and an opening deal, once per key. */
export const convertLead = writeRpcOf('convertLead', 'conversion', planConvertLead);

/** POST /leads/:id/qualify: a persona read by `reader`; only the lead.qualified event is stored. */
export async function qualifyLead(
  store: DocumentStore,
  reader: PersonaReader,
  req: crm.QualifyLeadRequest,
  ctx: RequestContext,
): Promise<crm.LeadQualificationWrite> {
  return writeRpc(store, ctx, 'qualification', {
    operation: 'qualifyLead',
    fingerprint: req,
    plan: (tenantId) => planQualifyLead(store, reader, tenantId, req, ctx),
  });
}
