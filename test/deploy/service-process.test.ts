// Each service as its own process: what a Deployment relies on. The entry points refuse to run
// split on the embedded adapters that cannot be shared (the event log, fast state, a generated
// operator secret) and say why; the process runner they share is tested in kit
// (services/kit/test/service-process.test.ts). The store is not among them: without MONGODB_URI a
// service keeps its embedded store in <FIELDOPS_DATA_DIR>/<service>, one replica only, as the
// directory lock enforces (services/kit/test/dir-lock.test.ts).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EXIT_CONFIG } from '@fieldops/kit/process';
import { SERVICE_ADDRESS_VARIABLES, serviceAddressesFromEnv } from '@fieldops/gateway';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

/**
 * Runs an entry point with only the given environment; resolves with its exit code and stderr.
 * The kill after 90 s only guards against a hang: loading an entry point's import graph (Node's
 * type stripping) takes seconds on a loaded 2-core machine (20 s was once too short, exit 143).
 */
const ENTRY_POINT_TEST_MS = 120_000;

async function runEntryPoint(path: string, env: Record<string, string>) {
  try {
    await run(process.execPath, [path], {
      cwd: root,
      env: { PATH: process.env.PATH, ...env },
      timeout: 90_000,
    });
    return { code: 0, stderr: '' };
  } catch (err) {
    const failed = err as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('entry points refuse to run split on embedded adapters', () => {
  const cases = [
    { path: 'gateway/src/main.ts', missing: ['KAFKA_BROKERS', 'REDIS_URL', 'FIELDOPS_ADMIN_SECRET'] },
    { path: 'services/crm/src/main.ts', missing: ['KAFKA_BROKERS'] },
    { path: 'services/audit/src/main.ts', missing: ['KAFKA_BROKERS'] },
  ];

  test.each(cases)(
    '$path names every missing variable and why, and exits 78',
    async ({ path, missing }) => {
      const { code, stderr } = await runEntryPoint(path, { LOG_LEVEL: 'silent' });
      expect(code).toBe(EXIT_CONFIG);
      expect(stderr).toContain('cannot run as its own process');
      for (const variable of missing) expect(stderr).toMatch(new RegExp(`${variable} is not set: .+`));
      expect(stderr).toContain('npm start');
    },
    ENTRY_POINT_TEST_MS,
  );

  test(
    'no entry point demands MongoDB: the embedded store in its own folder serves one replica',
    async () => {
      const results = await Promise.all(
        ['gateway/src/main.ts', 'services/projects/src/main.ts'].map((path) =>
          runEntryPoint(path, { LOG_LEVEL: 'silent' }),
        ),
      );
      for (const { code, stderr } of results) {
        expect(code).toBe(EXIT_CONFIG);
        expect(stderr).toContain('KAFKA_BROKERS is not set');
        expect(stderr).not.toContain('MONGODB_URI');
      }
    },
    ENTRY_POINT_TEST_MS,
  );

  test(
    'the gateway refuses service addresses that are not host:port',
    async () => {
      const { code, stderr } = await runEntryPoint('gateway/src/main.ts', {
        ...SPLIT_ENV,
        FIELDOPS_OPS_PORT: '0',
        FIELDOPS_CRM_ADDR: 'crm',
        LOG_LEVEL: 'silent',
      });
      expect(code).toBe(EXIT_CONFIG);
      expect(stderr).toContain('FIELDOPS_CRM_ADDR must be host:port (got "crm")');
      expect(stderr).toContain('FIELDOPS_AUDIT_ADDR is not set');
    },
    ENTRY_POINT_TEST_MS,
  );
});

// Enough to pass the split checks; the specs below open no adapter, so nothing is dialed.
const SPLIT_ENV = {
  KAFKA_BROKERS: 'kafka-0.kafka:9092',
  REDIS_URL: 'redis://redis.example:6379',
  FIELDOPS_ADMIN_SECRET: 'test-admin-secret',
};

describe('service addresses from the environment', () => {
  test('reads FIELDOPS_<SERVICE>_ADDR for every service the gateway calls', () => {
    // Every service the gateway has a client for, each at its own address (IPv6 for one of them).
    const services = Object.keys(SERVICE_ADDRESS_VARIABLES) as (keyof typeof SERVICE_ADDRESS_VARIABLES)[];
    expect(services).toEqual(expect.arrayContaining(['crm', 'audit', 'projects', 'capture']));
    const addressOf = (service: string, i: number) =>
      i === 0 ? `[::1]:5005${i}` : `fieldops-${service}:50051`;
    const env = Object.fromEntries(services.map((s, i) => [SERVICE_ADDRESS_VARIABLES[s], addressOf(s, i)]));
    expect(serviceAddressesFromEnv(env)).toEqual(
      Object.fromEntries(services.map((s, i) => [s, addressOf(s, i)])),
    );
  });

  test('names each missing or malformed variable', () => {
    expect(() => serviceAddressesFromEnv({ FIELDOPS_CRM_ADDR: 'fieldops-crm:99999' })).toThrow(
      /FIELDOPS_CRM_ADDR must be host:port \(got "fieldops-crm:99999"\)[\s\S]*FIELDOPS_AUDIT_ADDR is not set/,
    );
  });
});
