// Opens the exports domain on fresh embedded stores, with one real record-owning "service": a gRPC
// server serving kit's TenantDumpService over its own store, so the packager reads records over
// gRPC exactly as in the platform.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedBlobStore, type EmbeddedBlobStore } from '@fieldops/kit/blobs';
import { tenantDumpBinding } from '@fieldops/kit/domain';
import { startGrpcServer, type GrpcServer } from '@fieldops/kit/grpc';
import { createLogger } from '@fieldops/kit';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import { openExportsDomain, type ExportsDomain } from '../src/index.ts';
import { exportSettingsFromEnv, type ExportSettings } from '../src/exports/export-settings.ts';
import { connectTenantSources, closeTenantSources } from '../src/packager/tenant-sources.ts';
import type { Packager } from '../src/packager/packager.ts';
import { TENANT_A, TENANT_B, testContext as ctx, refusal } from '@fieldops/kit/testing';

export { TENANT_A, TENANT_B, ctx, refusal };

export const SOURCE_COLLECTION = 'widgets';

export interface TestExports {
  dir: string;
  store: DocumentStore;
  blobs: EmbeddedBlobStore;
  /** The record-owning service's own store (what its TenantDumpService reads). */
  sourceStore: DocumentStore;
  /** The record-owning service's gRPC address. */
  sourceAddress: string;
  domain: ExportsDomain;
  settings: ExportSettings;
  /** Starts a packager reading the given services (default: the test's source service). */
  startPackager(addresses?: Record<string, string>): Promise<Packager>;
  close(): Promise<void>;
}

const logger = createLogger('exports-test', 'silent');

export async function openTestExports(env: NodeJS.ProcessEnv = {}): Promise<TestExports> {
  const dir = mkdtempSync(join(tmpdir(), 'exports-test-'));
  const store = await openEmbeddedStore({ dir: join(dir, 'store'), fsync: 'never' });
  const sourceStore = await openEmbeddedStore({ dir: join(dir, 'source'), fsync: 'never' });
  await sourceStore.define({ name: SOURCE_COLLECTION });
  const blobs = await openEmbeddedBlobStore({ dir: join(dir, 'blobs'), baseUrl: 'http://127.0.0.1:1/blobs' });
  const source: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [tenantDumpBinding('widgets', sourceStore, [{ name: SOURCE_COLLECTION }])],
  });
  const settings = exportSettingsFromEnv(join(dir, 'work'), { FIELDOPS_EXPORT_POLL_MS: '50', ...env });
  const domain = await openExportsDomain({ store, blobs, settings });
  const stops: (() => Promise<void> | void)[] = [];
  return {
    dir,
    store,
    blobs,
    sourceStore,
    sourceAddress: source.address,
    domain,
    settings,
    startPackager: async (addresses = { widgets: source.address }) => {
      const sources = connectTenantSources(addresses);
      const packager = await domain.startPackager(sources, logger);
      stops.push(
        () => packager.stop(),
        () => closeTenantSources(sources),
      );
      return packager;
    },
    close: async () => {
      for (const stop of stops) await stop();
      await source.stop();
      await Promise.all([store.close(), sourceStore.close(), blobs.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
