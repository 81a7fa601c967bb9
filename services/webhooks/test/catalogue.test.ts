// The event-type catalogue (contracts/) is the services' own declarations, not a second list:
// this reads every `export type <Name>EventType = 'a' | 'b'` union in services/*/src/*events.ts
// and fails when a service declares a type the catalogue lacks, or the catalogue lists one that
// no service declares.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  UNSUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_TYPE_NAMES,
} from '@fieldops/contracts';

const SERVICES = resolve(import.meta.dirname, '..', '..');
// The webhooks service's own events (subscription writes) are not something to subscribe to.
const NOT_DECLARING = new Set(['webhooks', 'kit']);

function declaredEventTypes(): Map<string, string> {
  const declared = new Map<string, string>();
  for (const service of readdirSync(SERVICES).filter((name) => !NOT_DECLARING.has(name))) {
    const src = join(SERVICES, service, 'src');
    let files: string[];
    try {
      files = readdirSync(src).filter((name) => name.endsWith('events.ts'));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(join(src, file), 'utf8');
      for (const union of text.matchAll(/export type \w*EventType\s*=([^;]+);/g)) {
        for (const literal of (union[1] ?? '').matchAll(/'([a-z_]+\.[a-z_]+)'/g)) {
          declared.set(literal[1] as string, service);
        }
      }
    }
  }
  return declared;
}

describe('the webhook event-type catalogue', () => {
  const declared = declaredEventTypes();

  it('holds every event type a service declares (except the unsubscribable ones), with its service', () => {
    expect(declared.size).toBeGreaterThan(30);
    const catalogued = new Map(
      WEBHOOK_EVENT_TYPES.map((entry) => [entry.type as string, entry.service as string]),
    );
    for (const [type, service] of declared) {
      if (Object.hasOwn(UNSUBSCRIBABLE_EVENT_TYPES, type)) continue;
      expect({ type, service: catalogued.get(type) }).toEqual({ type, service });
    }
  });

  it('lists nothing that no service declares, and each type once', () => {
    for (const type of Object.keys(UNSUBSCRIBABLE_EVENT_TYPES)) expect(declared.has(type)).toBe(true);
    for (const type of WEBHOOK_EVENT_TYPE_NAMES)
      expect({ type, declared: declared.has(type) }).toEqual({ type, declared: true });
    expect(new Set(WEBHOOK_EVENT_TYPE_NAMES).size).toBe(WEBHOOK_EVENT_TYPE_NAMES.length);
  });

  it('marks exactly the four events the spec names', () => {
    const named = WEBHOOK_EVENT_TYPES.filter((entry) => 'named' in entry && entry.named).map(
      (entry) => entry.type,
    );
    expect(named.sort()).toEqual(['lead.created', 'payment.received', 'proposal.signed', 'scene.ready']);
  });
});
