// The blob store contract on the embedded store (always, served over real HTTP as the platform
// serves it) and on S3 (when S3_BUCKET is set; skipped with the reason otherwise).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedBlobStore } from '../src/blobs/embedded.js';
import { handleBlobRequest } from '../src/blobs/embedded-http.js';
import { s3OptionsFromEnv } from '../src/blobs/open-blob-store.js';
import { openS3BlobStore } from '../src/blobs/s3.js';
import { describeBlobStoreContract } from './contracts/blobs.contract.js';

describeBlobStoreContract('embedded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-blobs-'));
  const store = await openEmbeddedBlobStore({ dir });
  const server: Server = createServer((req, res) => {
    void handleBlobRequest(store, req, res, (req.url ?? '/').replace(/^\/blobs/, ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  store.setBaseUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/blobs`);
  return {
    store,
    cleanup: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const s3 = s3OptionsFromEnv();
// S3_EMULATOR_NO_SIGNATURES=1 for emulators such as moto that accept any presigned signature.
const checksSignatures = process.env['S3_EMULATOR_NO_SIGNATURES'] !== '1';
if (s3) {
  describeBlobStoreContract(
    `s3 (${s3.endpoint ?? 'aws'}, bucket ${s3.bucket}${checksSignatures ? '' : '; signature refusals skipped: the emulator does not check them'})`,
    async () => {
      const store = openS3BlobStore(s3);
      return { store, cleanup: () => store.close() };
    },
    { checksSignatures },
  );
} else {
  describe.skip('blob store contract: s3 (skipped: S3_BUCKET is not set; set S3_BUCKET and S3_ENDPOINT)', () => {
    it('runs against a real bucket', () => undefined);
  });
}
