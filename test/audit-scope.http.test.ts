// The audit trail under a project-restricted token (spec: Authentication 3): it lists and proves
// only entries about its projects; entries about other projects and tenant-level entries (a
// customer, a token) are not shown, and a proof redacts every entry it may not see.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  eventually,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';

let platform: TestPlatform;
let api: Client;
let restricted: Client;
let mine: string;
let theirs: string;
let theirRecord: string;
let customerId: string;

type Entry = Body & { id: string; seq: number; resourceId: string; redacted: boolean };

const entriesOf = async (client: Client, query = ''): Promise<Entry[]> => {
  const reply = await client.get(`/audit?limit=100${query}`);
  expect(reply.status).toBe(200);
  return reply.body.items as Entry[];
};

beforeAll(async () => {
  platform = await startTestPlatform();
  const tenant = await platform.tenant('Audit Scope Co');
  api = tenant.api;
  customerId = await newCustomer(api);
  mine = (await newProject(api, customerId)).id;
  theirs = (await newProject(api, customerId)).id;
  await api.post(`/projects/${mine}/records`, { kind: 'punch', title: 'Mine' });
  const record = await api.post(`/projects/${theirs}/records`, { kind: 'punch', title: 'Theirs' });
  theirRecord = (record.body.record as { id: string }).id;
  restricted = (await platform.token(tenant.tenantId, { role: 'Manager', projectIds: [mine] })).api;
  // Every write above is in the trail (it is fed by events, asynchronously).
  await eventually(async () =>
    (await entriesOf(api)).some((entry) => entry.resourceId === theirRecord) ? true : undefined,
  );
});
afterAll(() => platform.stop());

describe('GET /audit with a project-restricted token', () => {
  it('an unrestricted token sees every entry', async () => {
    const ids = (await entriesOf(api)).map((entry) => entry.resourceId);
    expect(ids).toEqual(expect.arrayContaining([mine, theirs, theirRecord, customerId]));
  });

  it('lists the entries about its projects and nothing else', async () => {
    const entries = await entriesOf(restricted);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.map((entry) => entry.resourceId)).toContain(mine);
    const text = JSON.stringify(entries);
    for (const hidden of [theirs, theirRecord, customerId]) expect(text).not.toContain(hidden);
    expect(entries.every((entry) => entry.redacted === false)).toBe(true);
  });

  it('finds nothing when it filters on another project', async () => {
    expect(await entriesOf(restricted, `&resourceId=${theirs}`)).toEqual([]);
  });
});

describe('GET /audit/verify with a project-restricted token', () => {
  it('verifies the whole chain without a proof', async () => {
    const reply = await restricted.get('/audit/verify');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ valid: true, proof: [] });
  });

  it('answers 404 for an entry about another project, as for one that does not exist', async () => {
    const [entry] = await entriesOf(api, `&resourceId=${theirRecord}`);
    const reply = await restricted.get(`/audit/verify?entryId=${entry?.id ?? ''}`);
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 'not_found' });
    const missing = await restricted.get('/audit/verify?entryId=aud_missing');
    expect(missing.body.error).toBe(String(reply.body.error).replace(entry?.id ?? '', 'aud_missing'));
  });

  it('proves its own entry with the others redacted to their links', async () => {
    const first = (await entriesOf(restricted)).at(-1) as Entry;
    const reply = await restricted.get(`/audit/verify?entryId=${first.id}`);
    expect(reply.status).toBe(200);
    const proof = reply.body.proof as Entry[];
    expect(proof[0]?.id).toBe(first.id);
    const text = JSON.stringify(proof);
    for (const hidden of [theirs, theirRecord, customerId]) expect(text).not.toContain(hidden);
    const redacted = proof.filter((entry) => entry.redacted);
    expect(redacted.length).toBeGreaterThan(0);
    for (const entry of redacted) {
      expect(entry).toMatchObject({ id: '', resourceId: '', action: '' });
      expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    // The links still hold from the entry to the head.
    for (let i = 1; i < proof.length; i += 1) expect(proof[i]?.prevHash).toBe(proof[i - 1]?.hash);
    expect(proof.at(-1)?.hash).toBe(reply.body.headHash);
  });
});
