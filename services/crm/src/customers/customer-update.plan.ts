import {
  checkLengths,
  describeChanges,
  diffFields,
  assertIfMatch,
  compact,
  emailKeyOf,
  patched,
  requiredName,
  getOrNotFound,
} from '@fieldops/kit/domain';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { crm } from '@fieldops/proto';
import { CUSTOMERS } from '../collections.ts';
import { createEffect, eventEffect, updateEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { insertActivity, newActivity } from './activity.ts';
import { CUSTOMER_FIELD_LIMITS, CUSTOMER_STAGES, CUSTOMER_STAGE_MACHINE } from '@fieldops/contracts';
import type { CustomerStage } from '@fieldops/contracts';
import { CUSTOMER_CHANGE_FIELDS, toCustomerView } from './customer.model.ts';
import type { CustomerDoc } from './customer.model.ts';

export async function planUpdateCustomer(
  store: DocumentStore,
  tenantId: string,
  req: crm.UpdateCustomerRequest,
  ctx: RequestContext,
): Promise<WritePlan<crm.Customer>> {
  checkLengths(CUSTOMER_FIELD_LIMITS, req);
  const doc = await getOrNotFound<CustomerDoc>(store, CUSTOMERS, tenantId, req.id, 'customer');
  assertIfMatch(req.ifMatch, doc, toCustomerView(doc));
  const next = amended(doc, req, requestedStage(doc, req.stage));
  const changes = diffFields(doc, next, CUSTOMER_CHANGE_FIELDS);
  if (changes.length === 0) return unchanged(doc);

  const activity = newActivity(ctx, tenantId, {
    subjectId: doc.id,
    at: next.updatedAt,
    action: 'updated',
    changes,
  });
  const customer = toCustomerView(next);
  return {
    ops: [
      { op: 'replace', collection: CUSTOMERS, doc: next, expectedVersion: doc.version },
      insertActivity(activity),
      emitCrmEvent(ctx, 'customer.updated', { kind: 'customer', id: doc.id }, { changes, customer }),
    ],
    result: customer,
    created: false,
    rehearsal: {
      willDo: `Update customer ${doc.id}: ${describeChanges(changes)}.`,
      effects: [
        updateEffect('customer', doc.id, changes),
        createEffect('activity', activity.id, [{ field: 'action', to: 'updated' }]),
        eventEffect('customer.updated', doc.id),
      ],
    },
  };
}

/** The stage after the PATCH, or 409 conflict with the legal moves from the current stage. */
function requestedStage(doc: CustomerDoc, sent: string | undefined): CustomerStage {
  if (sent === undefined || sent === doc.stage) return doc.stage;
  if (!CUSTOMER_STAGE_MACHINE.is(sent)) {
    throw new AppError('field_invalid_enum', `stage must be one of ${CUSTOMER_STAGES.join(', ')}.`, {
      field: 'stage',
      allowed: [...CUSTOMER_STAGES],
    });
  }
  if (CUSTOMER_STAGE_MACHINE.canMove(doc.stage, sent)) return sent;
  const legalTransitions = CUSTOMER_STAGE_MACHINE.next(doc.stage);
  throw new AppError(
    'conflict',
    `A customer cannot move from stage ${doc.stage} to ${sent}; from ${doc.stage} it can move to: ${legalTransitions.join(', ') || 'none'}.`,
    { legalTransitions, stage: doc.stage },
  );
}

function amended(doc: CustomerDoc, req: crm.UpdateCustomerRequest, stage: CustomerStage): CustomerDoc {
  const email = patched(doc.email, req.email);
  return compact({
    ...doc,
    name: req.name === undefined ? doc.name : requiredName(req.name),
    email,
    emailKey: emailKeyOf(email),
    phone: patched(doc.phone, req.phone),
    company: patched(doc.company, req.company),
    source: patched(doc.source, req.source),
    ownerId: patched(doc.ownerId, req.ownerId),
    stage,
    version: doc.version + 1,
    updatedAt: nowIso(),
  });
}

/** Nothing would change: answered as already there (replayed); no activity entry, no event. */
function unchanged(doc: CustomerDoc): WritePlan<crm.Customer> {
  return unchangedPlan(
    toCustomerView(doc),
    `Nothing would change: customer ${doc.id} already has these values.`,
  );
}
