// The event-type catalogue (contracts/) is the one list of events: each service's emit function
// takes ServiceEventType<'<service>'>, derived from it, so the type checker refuses an event a
// service emits that the catalogue lacks. What types cannot hold is checked here: a type belongs
// to one service only and is either subscribable or not, every name reads `<kind>.<what>`, the
// served list is the catalogue in order, and exactly the spec's four events are marked named.
import { describe, expect, it } from '@jest/globals';
import {
  NAMED_EVENT_TYPES,
  SUBSCRIBABLE_EVENTS,
  UNSUBSCRIBABLE_EVENT_TYPES,
  UNSUBSCRIBABLE_EVENTS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_TYPE_NAMES,
} from '@fieldops/contracts';

const typesOf = (catalogue: Record<string, Record<string, string>>) =>
  Object.values(catalogue).flatMap((events) => Object.keys(events));

describe('the webhook event-type catalogue', () => {
  const subscribable = typesOf(SUBSCRIBABLE_EVENTS);
  const unsubscribable = typesOf(UNSUBSCRIBABLE_EVENTS);

  it('names each event type once, under one service, subscribable or not', () => {
    const all = [...subscribable, ...unsubscribable];
    expect(all.length).toBeGreaterThan(30);
    expect(all.filter((type, index) => all.indexOf(type) !== index)).toEqual([]);
  });

  it('names every type <kind>.<what happened> and gives every one a sentence', () => {
    for (const events of [...Object.values(SUBSCRIBABLE_EVENTS), ...Object.values(UNSUBSCRIBABLE_EVENTS)]) {
      for (const [type, text] of Object.entries(events)) {
        expect({ type, named: /^[a-z_]+\.[a-z_]+$/.test(type), text: text.length > 10 }).toEqual({
          type,
          named: true,
          text: true,
        });
      }
    }
  });

  it('serves the subscribable types in catalogue order, each with its service', () => {
    expect(WEBHOOK_EVENT_TYPE_NAMES).toEqual(subscribable);
    for (const entry of WEBHOOK_EVENT_TYPES) {
      expect(Object.keys(SUBSCRIBABLE_EVENTS[entry.service])).toContain(entry.type);
    }
    expect(Object.keys(UNSUBSCRIBABLE_EVENT_TYPES)).toEqual(unsubscribable);
  });

  it('marks exactly the four events the spec names', () => {
    const named = WEBHOOK_EVENT_TYPES.filter((entry) => entry.named).map((entry) => entry.type);
    expect(named.sort()).toEqual(['lead.created', 'payment.received', 'proposal.signed', 'scene.ready']);
    expect([...NAMED_EVENT_TYPES].sort()).toEqual(named);
  });
});
