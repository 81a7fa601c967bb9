import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { bookings } from '@fieldops/proto';
import { BOOKING_POLICIES } from '../collections.ts';
import { diffFields } from '@fieldops/kit/domain';
import { eventEffect, updateEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import type { Window } from './booking-window.ts';
import { type Doc, type DocumentStore, upsertOp } from '@fieldops/kit/store';

const POLICY_ID = 'booking_policy';

export const POLICY_LIMITS = {
  minNoticeHours: { min: 0, max: 24 * 30 },
  maxDurationMinutes: { min: 15, max: 24 * 60 },
} as const;

interface PolicyDoc extends Doc {
  instantBook: boolean;
  minNoticeHours: number;
  maxDurationMinutes: number;
  recordedBy: string;
  recordedAt: string;
}

/** Until a member records one: no instant booking; every booking waits for a person. */
export const DEFAULT_BOOKING_POLICY: bookings.BookingPolicy = {
  instantBook: false,
  minNoticeHours: 24,
  maxDurationMinutes: 240,
  version: 0,
};

const POLICY_FIELDS = ['instantBook', 'minNoticeHours', 'maxDurationMinutes'] as const;

const toView = (doc: PolicyDoc): bookings.BookingPolicy => ({
  instantBook: doc.instantBook,
  minNoticeHours: doc.minNoticeHours,
  maxDurationMinutes: doc.maxDurationMinutes,
  version: doc.version,
  recordedBy: doc.recordedBy,
  recordedAt: doc.recordedAt,
});

export async function readBookingPolicy(
  store: DocumentStore,
  tenantId: string,
): Promise<bookings.BookingPolicy> {
  const doc = await store.get<PolicyDoc>(BOOKING_POLICIES, tenantId, POLICY_ID);
  return doc ? toView(doc) : DEFAULT_BOOKING_POLICY;
}

/** Whether the policy confirms a request for `window` made at `nowMs` without a person. */
export function policyCovers(policy: bookings.BookingPolicy, window: Window, nowMs: number): boolean {
  return (
    policy.instantBook &&
    window.startMs - nowMs >= policy.minNoticeHours * 3_600_000 &&
    window.endMs - window.startMs <= policy.maxDurationMinutes * 60_000
  );
}

/** The member recording the policy: only a person signed in to the portal may. */
function recordingMember(ctx: RequestContext): string {
  const principal = ctx.principal;
  if (principal?.kind === 'session' && principal.memberId) return principal.memberId;
  throw new AppError(
    'role_denied',
    'The instant-book policy is recorded by a member signed in to the portal, never by an API token: it decides which bookings are confirmed without a person.',
    { required: { action: 'update', kind: 'settings' } },
  );
}

function checkedLimit(value: number, field: keyof typeof POLICY_LIMITS): number {
  const { min, max } = POLICY_LIMITS[field];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new AppError('field_invalid', `${field} must be a whole number from ${min} to ${max}.`, { field });
  }
  return value;
}

export async function planSetBookingPolicy(
  store: DocumentStore,
  tenantId: string,
  req: bookings.SetBookingPolicyRequest,
  ctx: RequestContext,
): Promise<WritePlan<bookings.BookingPolicy>> {
  const recordedBy = recordingMember(ctx);
  const wanted = {
    instantBook: req.instantBook,
    minNoticeHours: checkedLimit(req.minNoticeHours, 'minNoticeHours'),
    maxDurationMinutes: checkedLimit(req.maxDurationMinutes, 'maxDurationMinutes'),
  };
  const current = await store.get<PolicyDoc>(BOOKING_POLICIES, tenantId, POLICY_ID);
  const before = current ?? { ...DEFAULT_BOOKING_POLICY };
  const changes = diffFields(before, { ...before, ...wanted }, POLICY_FIELDS);
  if (current && changes.length === 0) {
    return unchangedPlan(toView(current), 'Nothing would change: this is the policy in force.');
  }
  const doc: PolicyDoc = {
    id: POLICY_ID,
    tenantId,
    version: (current?.version ?? 0) + 1,
    ...wanted,
    recordedBy,
    recordedAt: nowIso(),
  };
  const policy = toView(doc);
  const write = upsertOp(BOOKING_POLICIES, doc, current);
  return {
    ops: [
      write,
      emitCrmEvent(
        ctx,
        'booking_policy.recorded',
        { kind: 'booking_policy', id: POLICY_ID },
        { policy, changes },
      ),
    ],
    result: policy,
    created: !current,
    rehearsal: {
      willDo: `Record version ${doc.version} of the instant-book policy (instant booking ${wanted.instantBook ? 'on' : 'off'}).`,
      effects: [
        updateEffect('booking_policy', POLICY_ID, changes),
        eventEffect('booking_policy.recorded', POLICY_ID),
      ],
    },
  };
}
