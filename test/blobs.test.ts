// The platform's blob route (/blobs) on the embedded store: bytes really PUT to the URLs presign
// hands out, refused for another content type, an altered signature, another key (another
// tenant's namespace included) or another method, and kept across a restart.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type Client, type TestPlatform } from './support/harness.ts';
import { captureProject, plyCloud, pointFrame, presign, put, type SessionBody } from './support/capture.ts';

let platform: TestPlatform;
let api: Client;
let tenantId: string;
let projectId: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ api, tenantId } = await platform.tenant('Blob Co'));
  projectId = await captureProject(api);
});
afterAll(async () => {
  await platform.stop();
  rmSync(platform.dataDir, { recursive: true, force: true });
});

describe('presigned upload URLs served by the platform', () => {
  it('point at the platform and take the bytes with no bearer token', async () => {
    const { uploads } = await presign(api, projectId, { frames: [pointFrame(4)] });
    const url = new URL(uploads[0]!.url);
    expect(`${url.protocol}//${url.host}`).toBe(platform.url);
    expect(url.pathname.startsWith(`/blobs/tenants/${tenantId}/captures/`)).toBe(true);
    const res = await put(uploads[0]!, 'abcd');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
  });

  it('refuse another content type, an altered signature, another key and another method', async () => {
    const { uploads } = await presign(api, projectId, { frames: [pointFrame(4), pointFrame(4)] });
    const [first, second] = uploads as [(typeof uploads)[0], (typeof uploads)[0]];
    const wrongType = await put(first, 'abcd', { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(403);
    expect(await wrongType.json()).toMatchObject({ ok: false, code: 'field_invalid' });

    const url = new URL(first.url);
    const name = [...url.searchParams.keys()].find((key) => /signature/i.test(key))!;
    url.searchParams.set(name, 'A'.repeat(url.searchParams.get(name)!.length));
    expect((await fetch(url, { method: 'PUT', headers: first.headers, body: 'abcd' })).status).toBe(403);

    // The first URL cannot write the second file's key, nor a key in another tenant's namespace.
    const swapped = first.url.replace(new URL(first.url).pathname, new URL(second.url).pathname);
    expect((await fetch(swapped, { method: 'PUT', headers: first.headers, body: 'abcd' })).status).toBe(403);
    const foreign = first.url.replace(`/tenants/${tenantId}/`, '/tenants/ten_other/');
    expect((await fetch(foreign, { method: 'PUT', headers: first.headers, body: 'abcd' })).status).toBe(403);

    const asGet = await fetch(first.url);
    expect(asGet.status).toBe(403);
    expect((await fetch(`${platform.url}/blobs/tenants/${tenantId}/anything`)).status).toBe(403);
  });

  it('keep uploaded bytes across a restart, so finalize after it meters them', async () => {
    const bytes = plyCloud();
    const { session, uploads } = await presign(api, projectId, { frames: [pointFrame(bytes.length)] });
    expect((await put(uploads[0]!, bytes)).status).toBe(200);
    const dataDir = platform.dataDir;
    await platform.running.stop();
    platform = await startTestPlatform({}, dataDir);
    const token = await platform.token(tenantId, { role: 'Manager' });
    api = token.api;
    const reply = await api.post(`/projects/${projectId}/capture/${session.id}/finalize`);
    expect(reply.status).toBe(200);
    expect((reply.body.session as SessionBody).storedBytes).toBe(bytes.length);
  });
});
