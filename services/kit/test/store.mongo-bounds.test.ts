// The bounds a MongoDB store works within (no server runs here): pool and wait-queue limits and the
// socket's timeout reach the driver from the settings, and a `$contains` page tests at most as many
// documents as the embedded store examines (one shared constant).
import { mongo } from 'mongoose';
import { DEFAULT_MONGO_BOUNDS, loadConfig } from '../src/config.ts';
import { PAGE_EXAMINE_LIMIT as EMBEDDED_LIMIT } from '../src/store/embedded.ts';
import { mongoClientOptions } from '../src/store/mongo/connect.ts';
import { containsRegex } from '../src/store/mongo/filter-query.ts';
import { containsPageNext, containsPagePipeline, splitContains } from '../src/store/mongo/page-query.ts';
import { PAGE_EXAMINE_LIMIT } from '../src/store/scan-budget.ts';

describe('mongodb bounds', () => {
  it('come from FIELDOPS_MONGODB_* with documented defaults', () => {
    expect(loadConfig({}, '/').mongodb).toEqual({
      operationTimeoutMs: 5000,
      maxPoolSize: 20,
      waitQueueTimeoutMs: 2000,
    });
    expect(DEFAULT_MONGO_BOUNDS).toEqual(loadConfig({}, '/').mongodb);
    const set = loadConfig(
      {
        FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '8000',
        FIELDOPS_MONGODB_MAX_POOL_SIZE: '50',
        FIELDOPS_MONGODB_WAIT_QUEUE_TIMEOUT_MS: '500',
      },
      '/',
    );
    expect(set.mongodb).toEqual({ operationTimeoutMs: 8000, maxPoolSize: 50, waitQueueTimeoutMs: 500 });
    expect(() => loadConfig({ FIELDOPS_MONGODB_MAX_POOL_SIZE: '0' }, '/')).toThrow(
      /FIELDOPS_MONGODB_MAX_POOL_SIZE must be at least 1/,
    );
  });

  it("reach the driver's client: pool size, wait queue and a socket timeout beyond the operation's", async () => {
    const uri = 'mongodb://127.0.0.1:1/fieldops?maxPoolSize=500';
    const bounds = { operationTimeoutMs: 3000, maxPoolSize: 7, waitQueueTimeoutMs: 250 };
    const client = new mongo.MongoClient(uri, mongoClientOptions({ uri, dbName: 'fieldops_crm', bounds }));
    expect(client.options.maxPoolSize).toBe(7);
    expect(client.options.waitQueueTimeoutMS).toBe(250);
    expect(client.options.socketTimeoutMS).toBeGreaterThan(3000);
    await client.close();
  });
});

describe('a $contains page on mongodb', () => {
  it('shares the embedded store scan budget', () => {
    expect(PAGE_EXAMINE_LIMIT).toBe(5000);
    expect(EMBEDDED_LIMIT).toBe(PAGE_EXAMINE_LIMIT);
  });

  it('narrows by the other conditions and tests $contains only within the budget', () => {
    const { narrow, tested } = splitContains({
      status: 'open',
      name: { $contains: 'ada' },
      $or: [{ a: 1 }, { b: { $contains: 'x' } }],
    });
    expect(narrow).toEqual({ status: 'open' });
    expect(tested).toEqual({ name: { $contains: 'ada' }, $or: [{ a: 1 }, { b: { $contains: 'x' } }] });
    expect(splitContains({ status: 'open' }).tested).toBeUndefined();

    const pipeline = containsPagePipeline(
      { tenantId: 't1' },
      { name: /ada/ },
      { field: 'name', direction: 'asc' },
      20,
    );
    expect(pipeline.slice(0, 3)).toEqual([
      { $match: { tenantId: 't1' } },
      { $sort: { name: 1, id: 1 } },
      { $limit: PAGE_EXAMINE_LIMIT + 1 },
    ]);
    const facet = (pipeline[3] as { $facet: Record<string, unknown[]> }).$facet;
    expect(facet.items?.[0]).toEqual({ $limit: PAGE_EXAMINE_LIMIT });
    expect(facet.items?.[1]).toEqual({ $match: { name: /ada/ } });
    expect(facet.examined?.[0]).toEqual({ $limit: PAGE_EXAMINE_LIMIT });
  });

  it('continues after the last item, or after the last document examined when the budget ran out', () => {
    const valueOf = (doc: mongo.Document): unknown => doc.name;
    const full = containsPageNext(
      {
        items: [
          { id: 'a', name: 'A' },
          { id: 'b', name: 'B' },
        ],
        examined: [],
        total: [{ n: 10 }],
      },
      1,
      valueOf,
    );
    expect(full.next).toEqual({ value: 'A', id: 'a' });
    const exhausted = containsPageNext(
      { items: [], examined: [{ last: { id: 'z', value: 'Z' } }], total: [{ n: PAGE_EXAMINE_LIMIT + 1 }] },
      20,
      valueOf,
    );
    expect(exhausted).toEqual({ items: [], next: { value: 'Z', id: 'z' } });
    const done = containsPageNext(
      { items: [], examined: [{ last: { id: 'z', value: 'Z' } }], total: [{ n: PAGE_EXAMINE_LIMIT }] },
      20,
      valueOf,
    );
    expect(done.next).toBeNull();
  });
});

describe('mongodb $contains', () => {
  it('is literal text: metacharacters escaped, a NUL written as the escape the server accepts', () => {
    expect(containsRegex('a.b*(c)')).toEqual({ $regex: 'a\\.b\\*\\(c\\)', $options: 'i' });
    const withNul = containsRegex('x\u0000y');
    expect(withNul.$regex).toBe('x\\x00y');
    expect(withNul.$regex).not.toContain('\u0000');
    // What the pattern means, read by a regex engine of the same syntax: it matches the text only.
    expect(new RegExp(withNul.$regex, 'i').test('X\u0000Y')).toBe(true);
    expect(new RegExp(containsRegex('a.b').$regex, 'i').test('axb')).toBe(false);
  });
});
