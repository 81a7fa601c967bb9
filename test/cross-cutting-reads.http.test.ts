// What a narrowed and a project-restricted token get from every read (issue 23, docs/decisions.md
// "Cross-cutting reads"). Registry-driven: every GET of the endpoint registry is run with a token
// narrowed to the endpoint's own kind and with a token restricted to one project, and nothing
// outside their reach may come back, in the body, in a link the answer carries, or in what that
// link downloads (an export archive is unpacked, a client page opened). A read that gathers more
// than one kind or project without declaring `gathers` fails here, as does an endpoint with path
// parameters this file cannot fill and does not explain.
import { buildRegistry, type EndpointDef, type PipelineDeps, KINDS, type Kind } from '@fieldops/gateway';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { downloadAndUnpack, settled } from './support/exports.ts';
import { eventually, newMember, type ApiRequestPath, type Body, type Client } from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';
import { suiteTenant } from './support/suite-tenant.ts';

// Built only to read the declarations; no handler runs here.
const registry = buildRegistry({} as PipelineDeps);

const { platform, api, tenantId } = await suiteTenant('Cross Cutting Co');

/**
 * GETs with path parameters other than a project's, and what fills them. A project-scoped read
 * (`projectParam`) is one project by construction: the pipeline answers 404 outside the token's
 * list before any handler runs (pipeline.http.test.ts, auth tests).
 */
type Seeded = Record<'lead' | 'customer' | 'deal' | 'export' | 'report', string>;
const FILL: Record<string, (seeded: Seeded) => string> = {
  '/leads/:id': (s) => `/leads/${s.lead}`,
  '/customers/:id': (s) => `/customers/${s.customer}`,
  '/deals/:id': (s) => `/deals/${s.deal}`,
  '/exports/:id': (s) => `/exports/${s.export}`,
  '/reports/:id': (s) => `/reports/${s.report}`,
};
/** Reads of one record of one kind that is not about a project; they must not declare `gathers`. */
const SINGLE_RECORD_NOT_SCANNED: Record<string, string> = {
  '/bookings/:id': 'one booking (deal scope), no project',
  '/proposals/:id': 'one proposal (deal scope), no project',
  '/invoices/:id': 'one invoice (deal scope), no project',
  '/webhooks/:id': 'one subscription (settings scope), no project',
  '/webhooks/:id/deliveries': "one subscription's deliveries (settings scope), no project",
  '/templates/:id': "one schedule template of the tenant's catalogue, no project",
};

const MARK = 'Xq7';
/** Text only a record of this kind holds: its name or title (or, with no free text, its id). */
const markers: Partial<Record<Kind, string[]>> = {};
/** What a token restricted to `mine` may never see: the other project's ids and text. */
const theirs: string[] = [];
let seeded: Seeded;
let mine: string;
let managerMember: string;

const getEndpoints = registry.filter((endpoint) => endpoint.method === 'GET');
const scanned = getEndpoints.filter(
  (endpoint) => !endpoint.projectParam && (!endpoint.path.includes(':') || FILL[endpoint.path] !== undefined),
);
const pathOf = (endpoint: EndpointDef): ApiRequestPath =>
  (FILL[endpoint.path]?.(seeded) ?? endpoint.path) as ApiRequestPath;

beforeAll(async () => {
  managerMember = await newMember(platform, tenantId, `boss-${MARK}@example.com`, 'Manager');
  const bound = (await platform.token(tenantId, { role: 'Manager', memberId: managerMember })).api;
  const customerMine = await newCustomer(api, `CustomerMine${MARK}`);
  const customerTheirs = await newCustomer(api, `CustomerTheirs${MARK}`);
  const projectMine = await newProject(api, customerMine, { name: `ProjectMine${MARK}` });
  const projectTheirs = await newProject(api, customerTheirs, { name: `ProjectTheirs${MARK}` });
  mine = projectMine.id;
  const recordMine = await api.post(`/projects/${mine}/records`, {
    kind: 'punch',
    title: `PunchMine${MARK}`,
  });
  const recordTheirs = await api.post(
    `/projects/${projectTheirs.id}/records`,
    { kind: 'punch', title: `PunchTheirs${MARK}` },
    { 'X-Agent-Task': `AgentTask${MARK}` },
  );
  const lead = await api.post('/leads', { name: `Lead${MARK}`, email: `lead-${MARK}@example.com` });
  const deal = await api.post('/deals', { customerId: customerTheirs });
  const today = new Date().toISOString().slice(0, 10);
  const visit = await bound.post('/tasks', {
    kind: 'visit',
    title: `VisitTheirs${MARK}`,
    projectId: projectTheirs.id,
    dueDate: today,
  });
  const report = await bound.post('/reports', {
    name: `Report${MARK}`,
    figures: [
      { label: 'Theirs', resource: 'projects', measure: 'count', filter: { projectId: projectTheirs.id } },
    ],
  });
  for (const reply of [recordMine, recordTheirs, lead, deal, visit, report]) expect(reply.status).toBe(201);
  const exported = await api.post('/exports', {});
  expect(exported.status).toBe(201);
  const exportId = (exported.body.export as { id: string }).id;
  seeded = {
    lead: (lead.body.lead as { id: string }).id,
    customer: customerTheirs,
    deal: (deal.body.deal as { id: string }).id,
    export: exportId,
    report: (report.body.report as { id: string }).id,
  };
  const recordTheirsId = (recordTheirs.body.record as { id: string }).id;
  markers.lead = [`Lead${MARK}`];
  markers.customer = [`CustomerMine${MARK}`, `CustomerTheirs${MARK}`];
  markers.deal = [seeded.deal];
  markers.job = [`ProjectMine${MARK}`, `ProjectTheirs${MARK}`, `VisitTheirs${MARK}`];
  markers.deliverable = [`PunchMine${MARK}`, `PunchTheirs${MARK}`];
  markers.report = [`Report${MARK}`];
  markers.settings = [`AgentTask${MARK}`];
  theirs.push(projectTheirs.id, `ProjectTheirs${MARK}`, recordTheirsId, `PunchTheirs${MARK}`);
  theirs.push(`VisitTheirs${MARK}`, (visit.body.task as { id: string }).id);
  expect((await settled(api, exportId, 60_000)).status).toBe('ready');
  // The trail and the feed are fed by events: wait until the last write is in both.
  await eventually(async () => {
    const audit = await api.get(`/audit?resourceId=${recordTheirsId}`);
    const feed = await api.get('/changes?limit=100');
    const inFeed = JSON.stringify(feed.body).includes(recordTheirsId);
    return (audit.body.items as unknown[]).length > 0 && inFeed ? true : undefined;
  });
}, 120_000);

/** Every string of a body that is a link to follow: absolute URLs and this origin's page paths. */
function linksOf(value: unknown, key = ''): { key: string; url: string }[] {
  if (typeof value === 'string') {
    if (/^https?:\/\//.test(value)) return [{ key, url: value }];
    if (/^\/(client|blobs|api)\//.test(value)) return [{ key, url: `${platform.url}${value}` }];
    return [];
  }
  if (Array.isArray(value)) return value.flatMap((item) => linksOf(item, key));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([member, item]) => linksOf(item, member));
  }
  return [];
}

/** What a link gives: an export archive unpacked (every file), or the page it opens. */
async function followed(link: { key: string; url: string }): Promise<string> {
  if (link.key === 'downloadUrl') {
    const unpacked = await downloadAndUnpack(link.url);
    return unpacked.files.map((file) => readFileSync(join(unpacked.dir, file), 'latin1')).join('\n');
  }
  const reply = await fetch(link.url, { headers: { connection: 'close' } });
  return `${reply.status} ${await reply.text()}`;
}

/** The body of a GET, and everything its links lead to, as one text. */
async function everything(
  client: Client,
  endpoint: EndpointDef,
): Promise<{ status: number; text: string; body: Body }> {
  const reply = await client.request('GET', pathOf(endpoint));
  const links = reply.status === 200 ? linksOf(reply.body) : [];
  const texts = await Promise.all(links.map(followed));
  return { status: reply.status, body: reply.body, text: [JSON.stringify(reply.body), ...texts].join('\n') };
}

/**
 * Copies a record keeps of another kind's field are the record's own (docs/decisions.md,
 * "Cross-cutting reads"): a project holds its customer's name, taken when it was created (the
 * spec's project summary: customer, site, status).
 */
const OWN_COPIES: Partial<Record<Kind, readonly Kind[]>> = { job: ['customer'] };

const found = (text: string, needles: readonly string[]) => needles.filter((needle) => text.includes(needle));
const readable = (own: readonly Kind[]) => [...own, ...own.flatMap((kind) => OWN_COPIES[kind] ?? [])];
const otherKindsMarkers = (own: readonly Kind[]) =>
  KINDS.filter((kind) => !readable(own).includes(kind)).flatMap((kind) => markers[kind] ?? []);

describe('the registry declares what it gathers', () => {
  it('every GET with path parameters is scanned here, project-scoped, or a single record', () => {
    const unexplained = getEndpoints.filter(
      (endpoint) =>
        endpoint.path.includes(':') &&
        !endpoint.projectParam &&
        FILL[endpoint.path] === undefined &&
        SINGLE_RECORD_NOT_SCANNED[endpoint.path] === undefined,
    );
    expect(unexplained.map((endpoint) => endpoint.path)).toEqual([]);
    const gathering = getEndpoints.filter(
      (endpoint) => SINGLE_RECORD_NOT_SCANNED[endpoint.path] && endpoint.gathers,
    );
    expect(gathering.map((endpoint) => endpoint.path)).toEqual([]);
  });

  it('the export, the feed, discovery, reports, the audit trail, client pages and the day view declare it', () => {
    const declared = registry.filter((endpoint) => endpoint.gathers).map((endpoint) => endpoint.path);
    for (const path of ['/exports', '/exports/:id', '/changes', '/resources', '/reports', '/reports/:id']) {
      expect(declared).toContain(path);
    }
    for (const path of ['/audit', '/audit/verify', '/client-pages', '/day', '/customers/:id']) {
      expect(declared).toContain(path);
    }
  });

  it('an unrestricted token sees the seeded records of several kinds or projects only through a declared read', async () => {
    const undeclared: string[] = [];
    for (const endpoint of scanned) {
      const { status, text } = await everything(api, endpoint);
      if (status !== 200 || endpoint.gathers) continue;
      const own: Kind[] = endpoint.scope ? [endpoint.scope.kind] : [];
      const kinds = KINDS.filter(
        (kind) => !readable(own).includes(kind) && found(text, markers[kind] ?? []).length > 0,
      );
      const projects = [`ProjectMine${MARK}`, `ProjectTheirs${MARK}`].filter((name) => text.includes(name));
      // A list of projects is one kind; what matters there is the restriction, checked below.
      const acrossProjects = projects.length > 1 && endpoint.path !== '/projects';
      if (kinds.length > 0 || acrossProjects) undeclared.push(`${endpoint.path}: ${kinds.join(', ')}`);
    }
    expect(undeclared).toEqual([]);
  }, 120_000);

  it('the markers work: the export archive an unrestricted token downloads holds every one', async () => {
    const exports = registry.find((endpoint) => endpoint.path === '/exports/:id') as EndpointDef;
    const { text } = await everything(api, exports);
    // Saved reports live in the exports service, whose own collections the archive leaves out.
    const all = [
      ...KINDS.filter((kind) => kind !== 'report').flatMap((kind) => markers[kind] ?? []),
      ...theirs,
    ];
    expect(found(text, all)).toEqual(all);
  }, 60_000);
});

describe('a narrowed token gets nothing of a kind it cannot read, from any read', () => {
  const tokens = new Map<string, Client>();
  const narrowedTo = async (kind: Kind): Promise<Client> => {
    const cached = tokens.get(kind);
    if (cached) return cached;
    const { api: client } = await platform.token(tenantId, {
      role: 'Manager',
      memberId: managerMember,
      permissions: { [kind]: ['read'] },
    });
    tokens.set(kind, client);
    return client;
  };

  it.each(scanned.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
    '%s',
    async (_name, endpoint) => {
      const kind: Kind = endpoint.scope?.kind ?? 'settings';
      const { status, text, body } = await everything(await narrowedTo(kind), endpoint);
      expect(found(text, otherKindsMarkers([kind]))).toEqual([]);
      const rule = endpoint.gathers;
      if (rule?.byKind === 'require' && rule.kinds.some((other) => other !== kind)) {
        const lacking = rule.kinds.filter((other) => other !== kind);
        expect(status).toBe(403);
        expect(body).toMatchObject({ ok: false, code: 'out_of_scope', required: { action: 'read' } });
        expect((body.missing as { kind: string }[]).map((scope) => scope.kind)).toEqual(lacking);
        expect(String(body.error)).toContain(`read on ${lacking.join(', ')}`);
      }
    },
    60_000,
  );
});

describe('a project-restricted token gets nothing of another project, from any read', () => {
  let restricted: Client;
  beforeAll(async () => {
    restricted = (
      await platform.token(tenantId, { role: 'Manager', memberId: managerMember, projectIds: [mine] })
    ).api;
  });

  it.each(scanned.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
    '%s',
    async (_name, endpoint) => {
      const { status, text, body } = await everything(restricted, endpoint);
      expect(found(text, theirs)).toEqual([]);
      if (endpoint.gathers?.byProject === 'refuse') {
        expect(status).toBe(403);
        expect(body).toMatchObject({ ok: false, code: 'out_of_scope', projectIds: [mine] });
        expect(String(body.error)).toContain('ask for a token without a project restriction');
      }
    },
    60_000,
  );

  it('cannot queue an export either, and /capabilities says so before it tries', async () => {
    const queued = await restricted.post('/exports', {});
    expect(queued.status).toBe(403);
    expect(queued.body).toMatchObject({ code: 'out_of_scope', projectIds: [mine] });
    const capabilities = await restricted.get('/capabilities');
    const createExport = (capabilities.body.endpoints as Body[]).find(
      (entry) => entry.operationId === 'createExport',
    );
    expect(createExport).toMatchObject({ allowed: false, refusal: { code: 'out_of_scope' } });
  });
});

describe('idempotency replays are answered to the credential that wrote', () => {
  it('another credential sending the same key gets field_invalid, not the original record', async () => {
    const otherMember = await newMember(platform, tenantId, `other-${MARK}@example.com`, 'Manager');
    const writer = (await platform.token(tenantId, { role: 'Manager', memberId: managerMember })).api;
    const other = (await platform.token(tenantId, { role: 'Manager', memberId: otherMember })).api;
    const body = { name: `Private${MARK}`, figures: [{ label: 'n', resource: 'leads', measure: 'count' }] };
    const first = await writer.post('/reports', body, { 'Idempotency-Key': `key-${MARK}` });
    expect(first.status).toBe(201);
    const id = (first.body.report as { id: string }).id;

    const stolen = await other.post('/reports', body, { 'Idempotency-Key': `key-${MARK}` });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject({ ok: false, code: 'field_invalid', field: 'opId' });
    expect(String(stolen.body.error)).toContain('another credential');
    expect(JSON.stringify(stolen.body)).not.toContain(id);

    const replay = await writer.post('/reports', body, { 'Idempotency-Key': `key-${MARK}` });
    expect([replay.status, replay.body.replayed, (replay.body.report as { id: string }).id]).toEqual([
      200,
      true,
      id,
    ]);
  });

  it('holds for every keyed write: a second token of the same role cannot replay the first token’s key', async () => {
    const restricted = (await platform.token(tenantId, { role: 'Manager', projectIds: [mine] })).api;
    const unrestricted = (await platform.token(tenantId, { role: 'Manager' })).api;
    const body = { kind: 'punch', title: `Keyed${MARK}`, opId: `rec-${MARK}` };
    const first = await unrestricted.post(`/projects/${mine}/records`, body);
    expect(first.status).toBe(201);
    const again = await restricted.post(`/projects/${mine}/records`, body);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'field_invalid', field: 'opId' });
  });
});
