// The index migration's decisions (`npm run store:migrate`), without a server: given the declared
// and the listed indexes of a collection, which are created, which differ and are left, which an
// operator's --drop removes (and rebuilds), and which nobody declared and are left alone.
import {
  MissingIndexes,
  parseDrops,
  planIndexes,
  specIndexes,
  storeCollections,
} from '../src/store/mongo/migrate.ts';

const declared = [
  { name: 'tenant_id', key: { tenantId: 1, id: 1 }, unique: true },
  { name: 'order_name', key: { tenantId: 1, name: 1, id: 1 } },
  { name: 'unique_email', key: { tenantId: 1, email: 1 }, unique: true },
];
const ID = { name: '_id_', key: { _id: 1 } };

describe('index migration plan', () => {
  it('creates every declared index on a new collection', () => {
    const plan = planIndexes('people', declared, []);
    expect(plan.create.map((index) => index.name)).toEqual(['tenant_id', 'order_name', 'unique_email']);
    expect(plan).toMatchObject({ unchanged: [], differing: [], drop: [], undeclared: [] });
  });

  it('creates only the missing ones, and leaves the held ones as they are', () => {
    const plan = planIndexes('people', declared, [ID, declared[0]!, declared[2]!]);
    expect(plan.create.map((index) => index.name)).toEqual(['order_name']);
    expect(plan.unchanged).toEqual(['tenant_id', 'unique_email']);
    expect(plan.drop).toEqual([]);
  });

  it('reports an index held with another shape, and does not drop it', () => {
    const listed = [ID, declared[0]!, declared[1]!, { name: 'unique_email', key: { tenantId: 1, email: 1 } }];
    const plan = planIndexes('people', declared, listed);
    expect(plan.differing).toEqual([{ declared: 'unique_email', held: 'unique_email' }]);
    expect(plan.create).toEqual([]);
    expect(plan.drop).toEqual([]);
  });

  it('reports the declared key held under another name, and creates nothing beside it', () => {
    const listed = [ID, declared[0]!, declared[2]!, { name: 'byName', key: { tenantId: 1, name: 1, id: 1 } }];
    const plan = planIndexes('people', declared, listed);
    expect(plan.differing).toEqual([{ declared: 'order_name', held: 'byName' }]);
    expect(plan.create).toEqual([]);
  });

  it('leaves an index nobody declared, and never lists _id_', () => {
    const plan = planIndexes('people', declared, [
      ID,
      ...declared,
      { name: 'ops_createdAt', key: { createdAt: -1 } },
    ]);
    expect(plan.undeclared).toEqual(['ops_createdAt']);
    expect(plan.drop).toEqual([]);
  });

  it('drops a differing index only when named, and rebuilds the declared one in its place', () => {
    const held = { name: 'unique_email', key: { tenantId: 1, email: 1 } };
    const plan = planIndexes('people', declared, [ID, declared[0]!, declared[1]!, held], ['unique_email']);
    expect(plan.drop).toEqual([{ index: 'unique_email', rebuild: declared[2] }]);
    expect(plan.differing).toEqual([]);
  });

  it('drops a named undeclared index without rebuilding anything', () => {
    const plan = planIndexes('people', declared, [ID, ...declared, { name: 'old', key: { x: 1 } }], ['old']);
    expect(plan.drop).toEqual([{ index: 'old' }]);
    expect(plan.undeclared).toEqual([]);
  });

  it('refuses to drop _id_ or an index the collection does not hold', () => {
    expect(() => planIndexes('people', declared, [ID], ['_id_'])).toThrow(/never dropped/);
    expect(() => planIndexes('people', declared, [ID], ['typo'])).toThrow(/people\.typo/);
  });

  it('reads --drop arguments as <collection>.<index>', () => {
    expect(parseDrops(['leads.order_createdAt', 'leads.x', 'deals.y'])).toEqual(
      new Map([
        ['leads', ['order_createdAt', 'x']],
        ['deals', ['y']],
      ]),
    );
    // The store's own collections hold a dot in their names.
    expect(parseDrops(['fieldops.outbox.seq', 'fieldops.counters.x.y'])).toEqual(
      new Map([
        ['fieldops.outbox', ['seq']],
        ['fieldops.counters', ['x.y']],
      ]),
    );
    expect(() => parseDrops(['leads'])).toThrow(/<collection>\.<index>/);
    expect(() => parseDrops(['.x'])).toThrow(/<collection>\.<index>/);
  });

  it('declares the indexes define() builds: the identity, unique keys, orderings; the outbox its own', () => {
    expect(specIndexes({ name: 'people', unique: [['email']], indexes: [['name']] })).toEqual([
      { name: 'tenant_id', key: { tenantId: 1, id: 1 }, unique: true },
      expect.objectContaining({ name: 'unique_email', key: { tenantId: 1, email: 1 }, unique: true }),
      { name: 'order_name', key: { tenantId: 1, name: 1, id: 1 } },
    ]);
    const [outbox] = storeCollections();
    // Seqs count per tenant (docs/decisions.md, "Outbox order per tenant").
    expect(outbox?.indexes.map((index) => index.name)).toEqual([
      'tenant_seq',
      'pending_tenant_seq',
      'published_ttl',
    ]);
  });

  it('names the missing indexes and the command that creates them', () => {
    const error = new MissingIndexes('fieldops_crm', ['leads.order_createdAt']);
    expect(error.message).toContain('fieldops_crm lacks the indexes leads.order_createdAt');
    expect(error.message).toContain('npm run store:migrate');
  });
});
