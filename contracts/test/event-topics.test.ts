// The topic list is derived from the declared event types: every service the webhook catalogue
// names, and the audit-only emitters, each exactly once.
import { describe, expect, it } from '@jest/globals';
import { AUDIT_ONLY_EMITTERS, EVENT_EMITTERS, EVENT_TOPICS, topicOf } from '../src/event-topics.ts';
import { WEBHOOK_EVENT_TYPES } from '../src/webhook-event-types.ts';

describe('EVENT_TOPICS', () => {
  it('holds one topic for each service that declares an event type, and for each audit-only emitter', () => {
    const services = new Set([
      ...WEBHOOK_EVENT_TYPES.map((entry) => entry.service),
      ...Object.keys(AUDIT_ONLY_EMITTERS),
    ]);
    expect(new Set(EVENT_EMITTERS)).toEqual(services);
    expect(EVENT_TOPICS).toHaveLength(services.size);
    expect(EVENT_TOPICS).toEqual(expect.arrayContaining([topicOf('exports'), topicOf('gateway')]));
  });
});
