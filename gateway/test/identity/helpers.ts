// Test fixtures: a real embedded store in a temporary directory, the identity module on it, and
// an express() app listening on port 0 for the HTTP tests.
import fs from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { DomainEvent } from '@fieldops/kit/events';
import { openEmbeddedStore, PLATFORM_TENANT, type DocumentStore } from '@fieldops/kit/store';
import express from 'express';
import type { Router } from 'express';
import { errorMiddleware } from '../../src/http/error-body.ts';
import type { Actor } from '../../src/identity/actor.ts';
import { openIdentity, type Identity } from '../../src/identity/index.ts';
import type { Tenant } from '../../src/identity/model.ts';

export const OPERATOR: Actor = { kind: 'operator' };

export interface Fixture {
  identity: Identity;
  store: DocumentStore;
  close: () => Promise<void>;
}

export async function openFixture(): Promise<Fixture> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldops-identity-'));
  const store = await openEmbeddedStore({ dir });
  const identity = await openIdentity({ store });
  return {
    identity,
    store,
    close: async () => {
      await store.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

let tenantCount = 0;
export const newTenant = (identity: Identity, name = `Tenant ${++tenantCount}`): Promise<Tenant> =>
  identity.tenants.create({ name }, OPERATOR);

/**
 * The pending outbox events of the given tenants, tenant by tenant in the order given, each in its
 * commit order (seq). There is no order across tenants to compare: the relay hands tenants their
 * turns round-robin (docs/production-adapters.md), so the outbox as a whole is read in turns.
 * A tenant's creation is an event of the platform's own tenant (PLATFORM_TENANT).
 */
export async function outboxEvents(
  store: DocumentStore,
  tenantIds: readonly string[],
): Promise<DomainEvent[]> {
  const records = await store.pendingOutbox(10_000);
  return tenantIds.flatMap((tenantId) =>
    records
      .filter((record) => record.tenantId === tenantId)
      .sort((a, b) => a.seq - b.seq)
      .map((record) => record.value as DomainEvent),
  );
}

export { PLATFORM_TENANT };

export interface TestServer {
  url: string;
  close: () => Promise<void>;
}

/** express.json(), then the router at `mount`, then the gateway's error middleware. */
export async function serve(mount: string, router: Router): Promise<TestServer> {
  const app = express();
  app.use(express.json());
  app.use(mount, router);
  app.use(errorMiddleware);
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${mount}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as the JSON body, with Content-Type: application/json. */
  json?: unknown;
  body?: string;
}

export async function call(url: string, options: CallOptions = {}): Promise<Reply> {
  const { json, headers = {}, method = 'GET', body } = options;
  const response = await fetch(url, {
    method,
    headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(json !== undefined ? { body: JSON.stringify(json) } : body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}
