// The two webhook lifecycles, as data (spec: "Webhooks"). Both were lists in the webhooks service
// and each file wrote its statuses by hand; now the service asks these machines.
// - A delivery is pending from its creation until an attempt succeeds or the schedule gives up; a
//   failed attempt with retries left keeps it pending (rescheduled). A retry through the API
//   (POST .../deliveries/{id}/retry) makes any delivery pending again for one more attempt.
// - A subscription is enabled from its creation; it is disabled by its owner (PATCH enabled:
//   false), by the platform (the endpoint answered 410, kept failing, or its credential was
//   revoked), and enabled again only by its owner.
import { defineMachine, type StateOf } from './define-machine.ts';

export const WEBHOOK_DELIVERY_STATUS_MACHINE = defineMachine({
  states: ['pending', 'succeeded', 'failed'],
  initial: 'pending',
  triggers: {
    succeed: { from: ['pending'], to: 'succeeded' },
    /** A failed attempt with a retry left: the delivery waits for its next attempt. */
    reschedule: { from: ['pending'], to: 'pending' },
    fail: { from: ['pending'], to: 'failed' },
    retry: { from: ['pending', 'succeeded', 'failed'], to: 'pending' },
  },
  /** The dispatcher's moves; only a retry is asked for through the API. */
  notByApi: ['succeed', 'reschedule', 'fail'],
});
export type WebhookDeliveryStatus = StateOf<typeof WEBHOOK_DELIVERY_STATUS_MACHINE>;

export const WEBHOOK_SUBSCRIPTION_STATUS_MACHINE = defineMachine({
  states: ['enabled', 'disabled'],
  initial: 'enabled',
  triggers: {
    disable: { from: ['enabled'], to: 'disabled' },
    enable: { from: ['disabled'], to: 'enabled' },
  },
});
export type WebhookSubscriptionStatus = StateOf<typeof WEBHOOK_SUBSCRIPTION_STATUS_MACHINE>;
