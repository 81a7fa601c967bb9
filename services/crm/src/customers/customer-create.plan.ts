import { checkLengths, setFields, cleanText, compact, emailKeyOf, requiredName } from '@fieldops/kit/domain';
import { type RequestContext, AppError, newId, nowIso } from '@fieldops/kit';
import type { WritePlan } from '@fieldops/kit/write';
import type { crm } from '@fieldops/proto';
import { CUSTOMERS } from '../collections.ts';
import { createEffect, eventEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { insertActivity, newActivity } from './activity.ts';
import { CUSTOMER_FIELD_LIMITS, CUSTOMER_STAGES, CUSTOMER_STAGE_MACHINE } from '@fieldops/contracts';
import type { CustomerStage } from '@fieldops/contracts';
import { CUSTOMER_CHANGE_FIELDS, toCustomerView } from './customer.model.ts';
import type { CustomerDoc } from './customer.model.ts';

/** Any stage may be set on create (spec: stage, default Lead); only PATCH goes through the machine. */
export function initialStage(sent: string | undefined): CustomerStage {
  if (sent === undefined || sent === '') return CUSTOMER_STAGE_MACHINE.initial;
  if (CUSTOMER_STAGE_MACHINE.is(sent)) return sent;
  throw new AppError('field_invalid_enum', `stage must be one of ${CUSTOMER_STAGES.join(', ')}.`, {
    field: 'stage',
    allowed: [...CUSTOMER_STAGES],
  });
}

export function planCreateCustomer(
  tenantId: string,
  req: crm.CreateCustomerRequest,
  ctx: RequestContext,
): WritePlan<crm.Customer> {
  checkLengths(CUSTOMER_FIELD_LIMITS, req);
  const now = nowIso();
  const email = cleanText(req.email);
  const doc: CustomerDoc = compact({
    id: newId('cus'),
    tenantId,
    version: 1,
    name: requiredName(req.name),
    email,
    emailKey: emailKeyOf(email),
    phone: cleanText(req.phone),
    company: cleanText(req.company),
    source: cleanText(req.source),
    ownerId: cleanText(req.ownerId),
    stage: initialStage(req.stage),
    createdAt: now,
    updatedAt: now,
    opId: ctx.idempotencyKey || cleanText(req.opId),
  });
  const changes = setFields(doc, CUSTOMER_CHANGE_FIELDS);
  const activity = newActivity(ctx, tenantId, { subjectId: doc.id, at: now, action: 'created', changes });
  const customer = toCustomerView(doc);
  return {
    ops: [
      { op: 'insert', collection: CUSTOMERS, doc },
      insertActivity(activity),
      emitCrmEvent(ctx, 'customer.created', { kind: 'customer', id: doc.id }, { customer }),
    ],
    result: customer,
    created: true,
    rehearsal: {
      willDo: `Create customer "${doc.name}" at stage ${doc.stage}.`,
      effects: [
        createEffect('customer', doc.id, changes),
        createEffect('activity', activity.id, [{ field: 'action', to: 'created' }]),
        eventEffect('customer.created', doc.id),
      ],
    },
  };
}
