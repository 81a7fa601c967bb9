// Every list endpoint's page, in its default order and with each filter it offers, is served by an
// index its service declares (collections.ts), so neither the embedded store nor MongoDB scans the
// tenant for it. This checks the declarations with the embedded store's own planner (query-plan.ts),
// the same rule the MongoDB index plan follows (equality fields first, the order field last).
import { describe, expect, it } from '@jest/globals';
import { CAPTURE_COLLECTIONS, CAPTURE_SESSIONS, DESIGNS, SCENES } from '@fieldops/capture/collections';
import { CRM_COLLECTIONS, CUSTOMERS, DEALS, INVOICES, LEADS, PROPOSALS } from '@fieldops/crm/collections';
import { EXPORT_COLLECTIONS, EXPORTS, REPORTS } from '@fieldops/exports/collections';
import { MEASUREMENT_COLLECTIONS, TAKEOFFS } from '@fieldops/measurements/collections';
import { PROJECT_RECORDS, PROJECTS, PROJECTS_COLLECTIONS } from '@fieldops/projects/collections';
import { PLANNING_COLLECTIONS, TASKS } from '@fieldops/projects/planning.collections';
import { DELIVERIES, SUBSCRIPTIONS, WEBHOOK_COLLECTIONS } from '@fieldops/webhooks/collections';
import { OrderedIndex } from '../src/store/ordered-index.ts';
import type { CollectionSpec, Doc, Filter, Sort } from '../src/store/port.ts';
import { choosePlan } from '../src/store/query-plan.ts';

const T = 'tenant_t';
const SPECS: readonly CollectionSpec[] = [
  ...CRM_COLLECTIONS,
  ...PROJECTS_COLLECTIONS,
  ...PLANNING_COLLECTIONS,
  ...MEASUREMENT_COLLECTIONS,
  ...EXPORT_COLLECTIONS,
  ...WEBHOOK_COLLECTIONS,
  ...CAPTURE_COLLECTIONS,
];

const newest = (field = 'createdAt'): Sort => ({ field, direction: 'desc' });

/** [list, collection, filter, sort]: the filters each list endpoint builds (see its service). */
const LISTS: [string, string, Filter, Sort][] = [
  ['GET /leads', LEADS, {}, newest()],
  ['GET /leads?status', LEADS, { status: 'new' }, newest()],
  ['GET /leads?ownerId', LEADS, { ownerId: 'mem_1' }, newest()],
  ['GET /customers', CUSTOMERS, {}, newest()],
  ['GET /customers?stage', CUSTOMERS, { stage: 'Lead' }, newest()],
  ['GET /deals', DEALS, {}, newest()],
  ['GET /deals?stage', DEALS, { stage: 'won' }, newest()],
  ['GET /deals?customerId', DEALS, { customerId: 'cus_1' }, newest()],
  ['GET /deals?open=true', DEALS, { stage: { $in: ['lead', 'proposal_sent', 'won'] } }, newest()],
  ['GET /proposals?status', PROPOSALS, { status: 'draft' }, newest()],
  ['GET /invoices?customerId', INVOICES, { customerId: 'cus_1' }, newest()],
  ['GET /projects', PROJECTS, {}, newest('updatedAt')],
  ['GET /projects?status', PROJECTS, { status: 'active' }, newest('updatedAt')],
  ['GET /projects?vertical', PROJECTS, { vertical: 'survey' }, newest('updatedAt')],
  ['GET /projects?customerId', PROJECTS, { customerId: 'cus_1' }, newest('updatedAt')],
  [
    'GET /projects?updatedSince',
    PROJECTS,
    { updatedAt: { $gte: '2026-01-01T00:00:00.000Z' } },
    newest('updatedAt'),
  ],
  [
    'GET /projects/:id/records',
    PROJECT_RECORDS,
    { projectId: 'prj_1', kind: 'punch', voidedAt: null },
    newest(),
  ],
  [
    'GET /projects/:id/records?includeVoided',
    PROJECT_RECORDS,
    { projectId: 'prj_1', kind: 'punch' },
    newest(),
  ],
  ['GET /projects/:id/takeoffs', TAKEOFFS, { projectId: 'prj_1' }, newest('revision')],
  ['GET /tasks', TASKS, { memberId: 'mem_1' }, newest()],
  ['GET /tasks?kind', TASKS, { memberId: 'mem_1', kind: 'visit' }, newest()],
  ['GET /tasks?projectId', TASKS, { memberId: 'mem_1', projectId: 'prj_1' }, newest()],
  ['GET /customers/:id (its captures)', CAPTURE_SESSIONS, { projectId: { $in: ['prj_1'] } }, newest()],
  ['GET /projects/:id/scenes', SCENES, { projectId: 'prj_1' }, newest()],
  ['GET /projects/:id/designs', DESIGNS, { projectId: 'prj_1' }, newest()],
  ['GET /exports', EXPORTS, {}, newest()],
  ['GET /reports', REPORTS, {}, newest()],
  ['GET /webhooks', SUBSCRIPTIONS, {}, newest()],
  ['GET /webhooks/:id/deliveries', DELIVERIES, { subscriptionId: 'whs_1' }, newest()],
  [
    'GET /webhooks/:id/deliveries?status',
    DELIVERIES,
    { subscriptionId: 'whs_1', status: 'failed' },
    newest(),
  ],
];

function indexesOf(collection: string): OrderedIndex[] {
  const spec = SPECS.find((candidate) => candidate.name === collection);
  if (!spec) throw new Error(`no collection ${collection}`);
  const indexes = (spec.indexes ?? []).map((fields) => new OrderedIndex(fields));
  // A document so the planner has buckets to hand out; which ones does not matter here.
  const doc: Doc = { id: 'x', tenantId: T, version: 1 };
  for (const index of indexes) index.add(doc);
  return indexes;
}

describe('list endpoints are served by declared indexes', () => {
  it.each(LISTS)('%s', (_list, collection, filter, sort) => {
    const plan = choosePlan(indexesOf(collection), T, filter, sort);
    expect(plan?.index.sortField).toBe(sort.field);
    // Every field the index pins is one the filter fixes by equality.
    for (const field of plan?.index.prefix ?? []) expect(Object.keys(filter)).toContain(field);
  });

  it('names a list without its index as unserved (the check can fail)', () => {
    expect(choosePlan(indexesOf(LEADS), T, {}, newest('score'))).toBeNull();
  });
});
