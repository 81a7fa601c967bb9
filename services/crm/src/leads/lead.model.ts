// A lead as stored, and as the API shows it.
import type { Doc } from '@fieldops/kit/store';
import type { crm } from '@fieldops/proto';
import { etagOf, type Complete } from '@fieldops/kit/domain';
import type { LeadStatus } from '@fieldops/contracts';

export interface LeadDoc extends Doc {
  name: string;
  email?: string;
  /**
   * The normalized email, set only while the lead is open (New, Contacted, Qualified). The sparse
   * unique key on it is what keeps one open lead per email per tenant, even under racing captures.
   */
  openEmailKey?: string;
  phone?: string;
  message?: string;
  source?: string;
  ownerId?: string;
  status: LeadStatus;
  score: number;
  createdAt: string;
  updatedAt: string;
  opId?: string;
  /** A customer with the same email when the lead was captured or its email last changed. */
  customerMatch?: crm.CustomerMatch;
  /** Set by conversion: the customer and the opening deal the lead became. */
  convertedTo?: crm.LeadConversionRef;
}

/** Fields whose changes are reported (rehearsal effects, lead.updated events). */
export const LEAD_CHANGE_FIELDS = [
  'name',
  'email',
  'phone',
  'message',
  'source',
  'ownerId',
  'status',
  'score',
] as const satisfies readonly (keyof LeadDoc & string)[];

export function toLeadView(doc: LeadDoc): crm.Lead {
  return {
    id: doc.id,
    name: doc.name,
    email: doc.email,
    phone: doc.phone,
    message: doc.message,
    source: doc.source,
    ownerId: doc.ownerId,
    status: doc.status,
    score: doc.score,
    etag: etagOf(doc),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    opId: doc.opId,
    customerMatch: doc.customerMatch ? { ...doc.customerMatch } : undefined,
    convertedTo: doc.convertedTo ? { ...doc.convertedTo } : undefined,
  } satisfies Complete<crm.Lead>;
}
