// The bench's tenants of a given size, built fast: one record is written through the public API
// (so its shape is exactly what the API writes), then the platform is stopped and that record is
// cloned straight into its service's document store, size - 1 times, each clone made distinct where
// the record must be (id, timestamps, unique keys). Seeding 100,000 records through HTTP would take
// minutes per list; a clone of a real record is the same bytes to a page read.
//
// Audit entries are cloned too: the clones are shaped like real entries but do not extend the hash
// chain (GET /audit/verify would report them); the bench only reads pages.
import type { Config } from '@fieldops/kit';
import { openServiceStore } from '@fieldops/kit/adapters';
import type { Doc, WriteOp } from '@fieldops/kit/store';
import { measureCone, type MeasurementsRpc } from '../../test/support/measurements.ts';

/** Calls the public API of one tenant: path below /api/v1, JSON body, parsed JSON answer. */
export type TenantApi = (
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
) => Promise<Record<string, unknown>>;

/** What a list's template write may use: the tenant's public API, and the workers' RPCs. */
export interface SeedContext {
  api: TenantApi;
  tenantId: string;
  /** Takeoffs have no public write: the measurement workers record them over gRPC. */
  measurements: MeasurementsRpc;
}

export interface ScaleList {
  id: string;
  /** The service store (under FIELDOPS_DATA_DIR) and collection the records live in. */
  service: string;
  collection: string;
  /** Writes the template record (and what it needs) as a client would; returns the page to read. */
  prepare(seed: SeedContext): Promise<string>;
  /** Whether the asynchronous part of the write has landed (audit entries, a packaged export). */
  settled?(api: TenantApi): Promise<boolean>;
  /** Fields that must differ per clone, beyond id and timestamps (unique keys). */
  vary?(doc: Doc, n: number): Partial<Doc>;
}

const created = (reply: Record<string, unknown>, field: string): string => {
  const value = reply[field] as { id?: unknown } | undefined;
  if (typeof value?.id !== 'string')
    throw new Error(`bench seeding: no ${field} in ${JSON.stringify(reply)}`);
  return value.id;
};

const newCustomer = async (api: TenantApi): Promise<string> =>
  created(
    await api('POST', '/customers', { name: 'Bench Quarry Ltd', email: 'buyer@bench.test' }),
    'customer',
  );

const newProject = async (api: TenantApi): Promise<string> =>
  created(
    await api('POST', '/projects', { customerId: await newCustomer(api), customerName: 'Bench' }),
    'project',
  );

const leadBody = {
  name: 'Seeded Lead',
  email: 'seeded@example.com',
  phone: '+1 555 010000',
  message: 'Roof survey request, two buildings, photos wanted by Friday.',
  source: 'web',
};

export const SCALE_LISTS: readonly ScaleList[] = [
  {
    id: 'leads',
    service: 'crm',
    collection: 'leads',
    prepare: async ({ api }) => {
      await api('POST', '/leads', leadBody);
      return '/leads?limit=50';
    },
    // One open lead per email: every clone gets its own address.
    vary: (_doc, n) => ({ email: `seeded-${n}@example.com`, openEmailKey: `seeded-${n}@example.com` }),
  },
  {
    id: 'customers',
    service: 'crm',
    collection: 'customers',
    prepare: async ({ api }) => {
      await newCustomer(api);
      return '/customers?limit=50';
    },
  },
  {
    id: 'deals',
    service: 'crm',
    collection: 'deals',
    prepare: async ({ api }) => {
      await api('POST', '/deals', { customerId: await newCustomer(api) });
      return '/deals?limit=50';
    },
  },
  {
    id: 'projects',
    service: 'projects',
    collection: 'projects',
    prepare: async ({ api }) => {
      await newProject(api);
      return '/projects?limit=50';
    },
  },
  {
    id: 'records',
    service: 'projects',
    collection: 'project_records',
    prepare: async ({ api }) => {
      const projectId = await newProject(api);
      await api('POST', `/projects/${projectId}/records`, { kind: 'punch', title: 'Gate sticks' });
      return `/projects/${projectId}/records?kind=punch&limit=50`;
    },
  },
  {
    id: 'takeoffs',
    service: 'measurements',
    collection: 'takeoffs',
    prepare: async ({ api, tenantId, measurements }) => {
      const projectId = await newProject(api);
      const snapshot = await measurements.recordQuantities(
        { projectId, runId: 'run_bench', captureId: 'cap_bench', quantities: await measureCone(5) },
        tenantId,
      );
      await measurements.recordTakeoff(
        {
          projectId,
          quantitiesId: snapshot.snapshot?.id ?? '',
          captured: [{ regionId: 'pile-a', field: 'net', costCode: '31-23-16', description: 'Stockpile A' }],
          drawn: [{ key: 'fence', description: 'Silt fence', costCode: '31-25', quantity: 80, unit: 'm' }],
          scope: 'Stockpile A and the silt fence, north yard',
          assumptions: ['Gravel at 1.7 t/m³ loose'],
          disclosures: [],
        },
        tenantId,
      );
      return `/projects/${projectId}/takeoffs?limit=50`;
    },
    // Revisions are unique per project: each clone is the next one.
    vary: (doc, n) => ({ revision: (doc['revision'] as number) + n }),
  },
  {
    id: 'exports',
    service: 'exports',
    collection: 'tenant_exports',
    prepare: async ({ api }) => {
      await api('POST', '/exports', {});
      return '/exports?limit=50';
    },
    settled: async (api) => {
      const items = (await api('GET', '/exports?limit=1')).items as { status?: string }[] | undefined;
      return items?.[0]?.status === 'ready';
    },
  },
  {
    id: 'audit',
    service: 'audit',
    collection: 'entries',
    prepare: async ({ api }) => {
      await newCustomer(api);
      return '/audit?limit=50';
    },
    settled: async (api) =>
      (((await api('GET', '/audit?limit=1')).items as unknown[] | undefined)?.length ?? 0) > 0,
    vary: (doc, n) => ({ seq: (doc['seq'] as number) + n, eventId: `${String(doc['eventId'])}_${n}` }),
  },
];

export function scaleList(id: string): ScaleList {
  const list = SCALE_LISTS.find((candidate) => candidate.id === id);
  if (!list) throw new Error(`unknown scale list ${id} (${SCALE_LISTS.map((l) => l.id).join(', ')})`);
  return list;
}

const BATCH = 1000;
const TIMESTAMPS = ['createdAt', 'updatedAt', 'at', 'occurredAt', 'requestedAt'];

/**
 * Clones the last record of `tenantId` in the list's collection until the tenant holds `size`.
 * The store must not be open elsewhere (the platform is stopped). Clones are spread over the past
 * few minutes, a handful per millisecond, so ties on the sort field are common, as in real bursts.
 */
export async function cloneRecords(
  config: Config,
  list: ScaleList,
  tenants: Map<string, number>,
): Promise<void> {
  const store = await openServiceStore(config, list.service);
  try {
    await store.define({ name: list.collection });
    for (const [tenantId, size] of tenants) {
      // The last one written: the template itself where the tenant holds other records too.
      const template = (await store.find<Doc>(list.collection, tenantId, {})).at(-1);
      if (!template) throw new Error(`bench seeding: no ${list.id} record in tenant ${tenantId}`);
      const base = Date.parse(String(template['createdAt'] ?? new Date().toISOString()));
      for (let start = 1; start < size; start += BATCH) {
        const ops: WriteOp[] = [];
        for (let n = start; n < Math.min(size, start + BATCH); n++) {
          ops.push({ op: 'insert', collection: list.collection, doc: cloneOf(list, template, n, base) });
        }
        await store.commit(tenantId, ops);
      }
    }
  } finally {
    await store.close();
  }
}

function cloneOf(list: ScaleList, template: Doc, n: number, base: number): Doc {
  const when = new Date(base - Math.floor(n / 3)).toISOString();
  const times = Object.fromEntries(
    TIMESTAMPS.filter((field) => field in template).map((field) => [field, when]),
  );
  return {
    ...template,
    ...times,
    ...list.vary?.(template, n),
    id: `${template.id}${n.toString(36)}`,
    version: 1,
  };
}
