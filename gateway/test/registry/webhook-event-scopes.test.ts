// The webhook read-scope table (contracts/src/webhook-event-scopes.ts) against the endpoint
// registry: an event about a resource kind the API can read one record at a time must need read
// on that read's scope kind, so a token that could not GET the record cannot receive its events.
// The registry is built only to read its declarations; no handler runs.
import { EVENT_READ_KINDS, WEBHOOK_EVENT_TYPE_NAMES, mayReceiveEvent } from '@fieldops/contracts';
import { buildRegistry } from '../../src/registry/index.ts';
import { buildResourceCatalogue } from '../../src/endpoint/resource-catalogue.ts';
import type { PipelineDeps } from '../../src/pipeline/deps.ts';
import { describe, expect, it } from '@jest/globals';

const catalogue = buildResourceCatalogue(buildRegistry({} as PipelineDeps));
const kindOfType = (type: string) => type.slice(0, type.indexOf('.'));

describe('EVENT_READ_KINDS', () => {
  const readable = WEBHOOK_EVENT_TYPE_NAMES.filter((type) =>
    catalogue.some((resource) => resource.kind === kindOfType(type)),
  );

  it('covers the event types of most resource kinds the registry reads (the check is not vacuous)', () => {
    expect(readable.length).toBeGreaterThan(WEBHOOK_EVENT_TYPE_NAMES.length / 2);
  });

  it.each(readable)('%s needs read on the scope of its resource read', (type) => {
    const resource = catalogue.find((entry) => entry.kind === kindOfType(type));
    expect(EVENT_READ_KINDS[type]).toContain(resource?.scopeKind);
  });
});

describe('mayReceiveEvent', () => {
  const all = { readKinds: ['lead', 'job', 'deal', 'settings'], projectIds: null };
  const restricted = { ...all, projectIds: ['prj_mine'] };

  it('needs every kind the payload carries', () => {
    expect(mayReceiveEvent(all, 'lead.created', null)).toBe(true);
    expect(mayReceiveEvent(all, 'lead.converted', null)).toBe(false); // no customer read
  });

  it("holds a restricted grant to its projects' events, and to tenant-level kinds without a project", () => {
    expect(mayReceiveEvent(restricted, 'project.updated', 'prj_mine')).toBe(true);
    expect(mayReceiveEvent(restricted, 'project.updated', 'prj_other')).toBe(false);
    expect(mayReceiveEvent(restricted, 'lead.created', null)).toBe(true);
    expect(mayReceiveEvent(restricted, 'booking.requested', null)).toBe(false);
  });
});
