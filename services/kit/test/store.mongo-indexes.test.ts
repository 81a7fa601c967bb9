// The MongoDB indexes a CollectionSpec turns into (the MongoDB suite checks them on a server; this
// runs everywhere). Every index is tenant-scoped; unique keys skip documents whose key is unset.
import { guardUniqueLookups, indexPlan, INDEXED_TYPES } from '../src/store/mongo/indexes.js';
import { globalSeqIndex } from '../src/store/mongo/outbox.js';
import { compareIndexes } from '../src/store/mongo/schema.js';

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

describe('mongodb outbox of an older version', () => {
  it('finds the unique index on seq alone, which per-tenant seqs cannot live with', () => {
    const id = { name: '_id_', key: { _id: 1 } };
    const tenantSeq = { name: 'tenant_seq', key: { tenantId: 1, seq: 1 }, unique: true };
    expect(globalSeqIndex([id, tenantSeq])).toBeUndefined();
    expect(globalSeqIndex([id, { name: 'seq', key: { seq: 1 }, unique: true }, tenantSeq])?.name).toBe('seq');
    // Not unique, it refuses nothing: left alone like any index nobody declared.
    expect(globalSeqIndex([{ name: 'by_seq', key: { seq: 1 } }])).toBeUndefined();
  });
});
