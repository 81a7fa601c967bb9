// The blob store contract on the embedded store, served over real HTTP as the platform serves it.
// The S3 adapter runs the same contract on a real server in blobs.s3.test.ts (FIELDOPS_TEST_S3).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedBlobStore } from '../src/blobs/embedded.ts';
import { handleBlobRequest } from '../src/blobs/embedded-http.ts';
import { describeBlobStoreContract } from './contracts/blobs.contract.ts';

describeBlobStoreContract(
  'embedded',
  async () => {
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
  },
  { checksSignatures: true, writesOnce: true },
);
