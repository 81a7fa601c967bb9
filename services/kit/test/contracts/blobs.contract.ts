// The blob store contract: what capture, exports and artifacts rely on from any adapter
// (embedded or S3). Bytes really travel: the tests PUT and GET through the presigned URLs with
// fetch, as a client would, and check what the store then reports.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError } from '../../src/errors.ts';
import { answerOrClosed } from '../../src/testing/closed-mid-body.ts';
import { blobKey, blobPrefix } from '../../src/blobs/key.ts';
import type { BlobKey, BlobStore, PresignedRequest } from '../../src/blobs/port.ts';

export interface OpenedBlobStore {
  store: BlobStore;
  cleanup: () => Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function upload(
  put: PresignedRequest,
  body: Uint8Array,
  headers: Record<string, string> = put.headers,
) {
  return fetch(put.url, { method: 'PUT', headers, body });
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

export interface ContractOptions {
  /**
   * False for an emulator that does not check presigned signatures or response overrides (moto):
   * the refusal tests then show as skipped instead of passing or failing for the emulator's sake.
   */
  checksSignatures: boolean;
  /**
   * Whether the store refuses a second PUT through a URL whose bytes are in (the embedded store:
   * 409). S3 signs If-None-Match: * into the URL, which AWS honours and S3Proxy ignores; the S3
   * suite shows what its server does (blobs.s3.test.ts).
   */
  writesOnce?: boolean;
  /**
   * Whether the server may refuse a PUT from its signed headers and close the connection before
   * reading the body (S3Proxy does): a client still writing a body larger than the socket buffers
   * then sees its write fail (EPIPE, ECONNRESET) instead of the 403, which counts as the refusal.
   */
  closesBeforeBody?: boolean;
}

export function describeBlobStoreContract(
  adapterName: string,
  open: () => Promise<OpenedBlobStore>,
  options: ContractOptions = { checksSignatures: true },
): void {
  const itSigned = options.checksSignatures ? it : it.skip;
  const itWritesOnce = options.writesOnce ? it : it.skip;
  describe(`blob store contract: ${adapterName}`, () => {
    let store: BlobStore;
    let cleanup: (() => Promise<void>) | undefined;
    // A fresh tenant per test keeps runs against a shared bucket apart.
    let tenant: string;
    const key = (...parts: string[]): BlobKey => blobKey(tenant, ...parts);

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      tenant = `t${randomUUID().replaceAll('-', '')}`;
    });
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it('stores the bytes PUT to a presigned URL and reports their real size and pinned type', async () => {
      const k = key('captures', 'cap_1', 'frames', '0001.jpg');
      const put = await store.presignPut(k, { contentType: 'image/jpeg', contentLength: 10 });
      expect(put.headers).toEqual({
        'content-type': 'image/jpeg',
        'content-length': '10',
        'if-none-match': '*',
      });
      expect(Date.parse(put.expiresAt)).toBeGreaterThan(Date.now());
      const res = await upload(put, Buffer.from('0123456789'));
      expect(res.status).toBe(200);
      const head = await store.head(k);
      expect(head).toMatchObject({ key: k, size: 10, contentType: 'image/jpeg' });
      expect(head?.etag).toBeTruthy();
    });

    itSigned('refuses a PUT with another content type than the pinned one, storing nothing', async () => {
      const k = key('captures', 'cap_1', 'frames', '0002.jpg');
      const put = await store.presignPut(k, { contentType: 'image/jpeg', contentLength: 3 });
      const res = await upload(put, Buffer.from('abc'), { 'content-type': 'image/png' });
      expect(res.status).toBe(403);
      expect(await store.head(k)).toBeNull();
    });

    itSigned('refuses an altered signature and a URL moved to another key', async () => {
      const k = key('captures', 'cap_1', 'frames', '0003.jpg');
      const put = await store.presignPut(k, { contentType: 'image/jpeg', contentLength: 1 });
      const url = new URL(put.url);
      const signatureParam = [...url.searchParams.keys()].find((name) => /signature/i.test(name)) ?? '';
      const signature = url.searchParams.get(signatureParam) ?? '';
      url.searchParams.set(
        signatureParam,
        `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`,
      );
      expect((await fetch(url, { method: 'PUT', headers: put.headers, body: 'x' })).status).toBe(403);

      const other = key('captures', 'cap_1', 'frames', 'other.jpg');
      const moved = put.url.replace('0003.jpg', 'other.jpg');
      expect((await fetch(moved, { method: 'PUT', headers: put.headers, body: 'x' })).status).toBe(403);
      expect(await store.head(k)).toBeNull();
      expect(await store.head(other)).toBeNull();
    });

    itSigned(
      'refuses a PUT of another length than the declared one (longer, shorter), storing nothing',
      async () => {
        const k = key('captures', 'cap_1', 'frames', '0005.jpg');
        const put = await store.presignPut(k, { contentType: 'image/jpeg', contentLength: 10 });
        // Every header as presigned but Content-Length, which fetch then sets to the body's length.
        const { 'content-length': _signed, ...others } = put.headers;
        const longer = await answerOrClosed(() => upload(put, Buffer.alloc(2_000_000), others));
        if (longer === 'closed') expect(options.closesBeforeBody).toBe(true);
        else expect(longer.status).toBe(403);
        const shorter = await upload(put, Buffer.from('0123'), others);
        expect(shorter.status).toBe(403);
        expect(await store.head(k)).toBeNull();
        // The declared length still goes through the same URL.
        expect((await upload(put, Buffer.from('0123456789'))).status).toBe(200);
        expect(await store.head(k)).toMatchObject({ size: 10 });
      },
    );

    itWritesOnce(
      'refuses a second write through a URL whose bytes are in (409 conflict), keeping them',
      async () => {
        const k = key('captures', 'cap_1', 'frames', '0006.jpg');
        const put = await store.presignPut(k, { contentType: 'image/jpeg', contentLength: 5 });
        expect((await upload(put, Buffer.from('first'))).status).toBe(200);
        const again = await upload(put, Buffer.from('other'));
        expect(again.status).toBe(409);
        expect(await again.json()).toMatchObject({ ok: false, code: 'conflict', error: /writes once/ });
        const read = await store.get(k);
        expect(await text(read!.body)).toBe('first');
        // A fresh URL for the same key is refused too: the key, not the URL, is written once.
        const fresh = await store.presignPut(k, { contentType: 'image/jpeg', contentLength: 5 });
        expect((await upload(fresh, Buffer.from('third'))).status).toBe(409);
      },
    );

    itSigned('refuses an expired URL', async () => {
      const k = key('captures', 'cap_1', 'frames', '0004.jpg');
      const put = await store.presignPut(k, {
        contentType: 'image/jpeg',
        contentLength: 4,
        expiresInSeconds: 1,
      });
      await sleep(2100);
      expect((await upload(put, Buffer.from('late'))).status).toBe(403);
      expect(await store.head(k)).toBeNull();
    });

    itSigned(
      'serves the bytes through a presigned GET, whole and by range, with the download name',
      async () => {
        const k = key('exports', 'exp_1', 'archive.zip');
        await store.put(k, Buffer.from('hello blob world'), { contentType: 'application/zip' });
        const get = await store.presignGet(k, { downloadName: 'tenant archive.zip' });
        const whole = await fetch(get.url);
        expect(whole.status).toBe(200);
        expect(whole.headers.get('content-type')).toBe('application/zip');
        expect(whole.headers.get('content-disposition')).toContain('tenant archive.zip');
        expect(await whole.text()).toBe('hello blob world');
        const part = await fetch(get.url, { headers: { range: 'bytes=6-9' } });
        expect(part.status).toBe(206);
        expect(await part.text()).toBe('blob');
        // A GET URL grants no upload.
        expect((await fetch(get.url, { method: 'PUT', body: 'x' })).status).toBe(403);
      },
    );

    it('streams put/get from services, and stat meters many keys with the absent ones null', async () => {
      const a = key('runs', 'run_1', 'a.bin');
      const b = key('runs', 'run_1', 'b.bin');
      const head = await store.put(a, Readable.from([Buffer.from('abc'), Buffer.from('def')]), {
        contentType: 'application/octet-stream',
      });
      expect(head.size).toBe(6);
      const read = await store.get(a, { range: { start: 2 } });
      expect(read?.range).toEqual({ start: 2, end: 5 });
      expect(await text(read!.body)).toBe('cdef');
      const stats = await store.stat([a, b]);
      expect(stats.get(a)?.size).toBe(6);
      expect(stats.get(b)).toBeNull();
      expect(await store.get(b)).toBeNull();
    });

    it('refuses a service put over its ceiling and stores nothing', async () => {
      const k = key('runs', 'run_1', 'big.bin');
      await expect(
        store.put(k, Buffer.alloc(20), { contentType: 'application/octet-stream', maxBytes: 10 }),
      ).rejects.toBeInstanceOf(AppError);
      expect(await store.head(k)).toBeNull();
    });

    it('lists a prefix in key order a page at a time, and deletes', async () => {
      for (const name of ['c', 'a', 'b']) {
        await store.put(key('list', name), Buffer.from(name), { contentType: 'text/plain' });
      }
      await store.put(key('listed-elsewhere', 'z'), Buffer.from('z'), { contentType: 'text/plain' });
      const first = await store.list(blobPrefix(tenant, 'list'), { limit: 2 });
      expect(first.items.map((item) => item.key)).toEqual([key('list', 'a'), key('list', 'b')]);
      expect(first.nextCursor).not.toBeNull();
      const second = await store.list(blobPrefix(tenant, 'list'), { limit: 2, cursor: first.nextCursor! });
      expect(second.items.map((item) => item.key)).toEqual([key('list', 'c')]);
      expect(second.nextCursor).toBeNull();
      await store.delete(key('list', 'a'));
      await store.delete(key('list', 'never-there'));
      expect(await store.head(key('list', 'a'))).toBeNull();
    });

    it('refuses presigned URLs that outlive an hour and content types that are not media types', async () => {
      const k = key('x', 'y.bin');
      await expect(
        store.presignPut(k, { contentType: 'image/jpeg', contentLength: 1, expiresInSeconds: 7200 }),
      ).rejects.toThrow(/expiresInSeconds/);
      await expect(store.presignPut(k, { contentType: 'not a type', contentLength: 1 })).rejects.toThrow(
        /contentType/,
      );
      for (const contentLength of [-1, 1.5, 5 * 1024 ** 3 + 1]) {
        await expect(store.presignPut(k, { contentType: 'image/jpeg', contentLength })).rejects.toThrow(
          /contentLength/,
        );
      }
    });
  });
}
