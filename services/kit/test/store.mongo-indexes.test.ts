// The MongoDB indexes a CollectionSpec turns into (the MongoDB suite checks them on a server; this
// runs everywhere). Every index is tenant-scoped; unique keys skip documents whose key is unset.
import { guardUniqueLookups, indexPlan, INDEXED_TYPES } from '../src/store/mongo/indexes.ts';
import { describePlan, planIndexes } from '../src/store/mongo/migrate.ts';
import { compareIndexes, StrayUniqueIndexes } from '../src/store/mongo/schema.ts';

describe('mongodb index plan', () => {
  it('indexes identity, each unique key (partial) and each list order (ending with id)', () => {
    const plan = indexPlan({
      name: 'leads',
      unique: [['openEmail'], ['idempotencyKey', 'operation']],
      indexes: [['createdAt'], ['status', 'updatedAt']],
    });
    expect(plan).toEqual([
      { key: { tenantId: 1, id: 1 }, options: { name: 'tenant_id', unique: true } },
      {
        key: { tenantId: 1, openEmail: 1 },
        options: {
          name: 'unique_openEmail',
          unique: true,
          partialFilterExpression: { openEmail: { $type: INDEXED_TYPES } },
        },
      },
      {
        key: { tenantId: 1, idempotencyKey: 1, operation: 1 },
        options: {
          name: 'unique_idempotencyKey_operation',
          unique: true,
          partialFilterExpression: {
            idempotencyKey: { $type: INDEXED_TYPES },
            operation: { $type: INDEXED_TYPES },
          },
        },
      },
      { key: { tenantId: 1, createdAt: 1, id: 1 }, options: { name: 'order_createdAt' } },
      { key: { tenantId: 1, status: 1, updatedAt: 1, id: 1 }, options: { name: 'order_status_updatedAt' } },
    ]);
    expect(INDEXED_TYPES).not.toContain('null');
  });

  it('keeps one index per key pattern', () => {
    const plan = indexPlan({ name: 'c', unique: [['id']], indexes: [['id'], ['name'], ['name', 'id']] });
    expect(plan.map((entry) => entry.options.name)).toEqual(['tenant_id', 'order_name']);
  });

  it('refuses index field lists that are empty or name operators', () => {
    expect(() => indexPlan({ name: 'c', unique: [[]] })).toThrow(/non-empty list of field names/);
    expect(() => indexPlan({ name: 'c', indexes: [['$where']] })).toThrow(/non-empty list of field names/);
  });

  it('guards a lookup that pins a whole unique key, so the partial index can serve it', () => {
    const query = { tenantId: 't1', email: 'a@x', name: 'Ada' };
    expect(guardUniqueLookups([['email']], query)).toEqual({
      tenantId: 't1',
      email: { $eq: 'a@x', $type: INDEXED_TYPES },
      name: 'Ada',
    });
    // Not pinned to a scalar (an operator, a null, part of a compound key): left as it is.
    expect(guardUniqueLookups([['email']], { tenantId: 't1', email: { $in: ['a'] } })).toEqual({
      tenantId: 't1',
      email: { $in: ['a'] },
    });
    expect(guardUniqueLookups([['email']], { tenantId: 't1', email: null })).toEqual({
      tenantId: 't1',
      email: null,
    });
    expect(guardUniqueLookups([['team', 'badge']], { tenantId: 't1', team: 'red' })).toEqual({
      tenantId: 't1',
      team: 'red',
    });
  });
});

describe('mongodb index sync', () => {
  const declared = [
    { name: 'tenant_id', key: { tenantId: 1, id: 1 }, unique: true },
    { name: 'order_name', key: { tenantId: 1, name: 1, id: 1 } },
    { name: 'unique_email', key: { tenantId: 1, email: 1 }, unique: true },
  ];

  it('reports what is missing and what differs, and never what nobody declared', () => {
    const listed = [
      { name: '_id_', key: { _id: 1 } },
      { name: 'tenant_id', key: { tenantId: 1, id: 1 }, unique: true },
      // Same name, no longer unique: differs, left as it is.
      { name: 'unique_email', key: { tenantId: 1, email: 1 } },
      // An operator's own index: not reported, never dropped.
      { name: 'ops_createdAt', key: { createdAt: -1 } },
    ];
    const { missing, differing } = compareIndexes(declared, listed);
    expect(missing.map((index) => index.name)).toEqual(['order_name']);
    expect(differing).toEqual(['unique_email']);
  });

  it('counts an index of the declared key under another name as present, and says so', () => {
    const listed = [
      { name: 'tenant_id', key: { tenantId: 1, id: 1 }, unique: true },
      { name: 'byName', key: { tenantId: 1, name: 1, id: 1 } },
      { name: 'unique_email', key: { tenantId: 1, email: 1 }, unique: true },
    ];
    const { missing, differing } = compareIndexes(declared, listed);
    expect(missing).toEqual([]);
    expect(differing).toEqual(['order_name (held as byName)']);
  });
});

describe('unique indexes no version declares', () => {
  it("are found (a former version's key, such as the global outbox seq), and no other undeclared index is", () => {
    const id = { name: '_id_', key: { _id: 1 }, unique: true };
    const tenantSeq = { name: 'tenant_seq', key: { tenantId: 1, seq: 1 }, unique: true };
    const declaredSeq = [tenantSeq];
    expect(compareIndexes(declaredSeq, [id, tenantSeq]).strayUnique).toEqual([]);
    const globalSeq = { name: 'seq', key: { seq: 1 }, unique: true };
    expect(compareIndexes(declaredSeq, [id, globalSeq, tenantSeq]).strayUnique).toEqual(['seq']);
    // Not unique, it refuses nothing: left alone like any index nobody declared.
    expect(compareIndexes(declaredSeq, [id, { name: 'by_seq', key: { seq: 1 } }]).strayUnique).toEqual([]);
    // A declared unique key held under another name is the declared one, not a stray.
    const renamed = { ...tenantSeq, name: 'tenantId_1_seq_1' };
    expect(compareIndexes(declaredSeq, [id, renamed]).strayUnique).toEqual([]);
  });

  it('stop a service with the command that drops them, and are listed by the migration', () => {
    const refusal = new StrayUniqueIndexes('quantity_snapshots', ['unique_runId']);
    expect(refusal.message).toMatch(
      /quantity_snapshots holds the unique index unique_runId, which this version does not declare.*npm run store:migrate -- --drop quantity_snapshots.unique_runId$/,
    );
    const declared = [
      { name: 'unique_runId_regionVersion', key: { tenantId: 1, runId: 1, regionVersion: 1 }, unique: true },
    ];
    const held = [{ name: 'unique_runId', key: { tenantId: 1, runId: 1 }, unique: true }, ...declared];
    const plan = planIndexes('quantity_snapshots', declared, held);
    expect(plan.strayUnique).toEqual(['unique_runId']);
    expect(describePlan(plan, false).join('\n')).toMatch(
      /quantity_snapshots.unique_runId: unique and not declared by this version; services refuse to start .*--drop quantity_snapshots.unique_runId/,
    );
    expect(planIndexes('quantity_snapshots', declared, held, ['unique_runId']).strayUnique).toEqual([]);
  });
});
