// Each service as its own process: what a Deployment relies on. The entry points refuse to run
// split on the embedded adapters (and say why), and the process runner they share reports ready
// only while it can serve, drains on stop, and closes what it opened in reverse order.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { ConfigError } from '@fieldops/kit/config';
import { HealthRegistry } from '@fieldops/kit/health';
import { EXIT_CONFIG, startServiceProcess } from '@fieldops/kit/process/service-process';
import type { ServiceProcessSpec } from '@fieldops/kit/process/service-process';
import { SplitRequirementError } from '@fieldops/kit/process/split-requirements';
import { SERVICE_ADDRESS_VARIABLES, serviceAddressesFromEnv } from '@fieldops/gateway/service-addresses';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

/** Runs an entry point with only the given environment; resolves with its exit code and stderr. */
async function runEntryPoint(path: string, env: Record<string, string>) {
  try {
    await run(tsx, [path], { cwd: root, env: { PATH: process.env.PATH, ...env }, timeout: 20_000 });
    return { code: 0, stderr: '' };
  } catch (err) {
    const failed = err as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('entry points refuse to run split on embedded adapters', () => {
  const cases = [
    {
      path: 'gateway/src/main.ts',
      missing: ['KAFKA_BROKERS', 'MONGODB_URI', 'REDIS_URL', 'FIELDOPS_ADMIN_SECRET'],
    },
    { path: 'services/crm/src/main.ts', missing: ['KAFKA_BROKERS', 'MONGODB_URI'] },
    { path: 'services/audit/src/main.ts', missing: ['KAFKA_BROKERS', 'MONGODB_URI'] },
  ];

  test.each(cases)('$path names every missing variable and why, and exits 78', async ({ path, missing }) => {
    const { code, stderr } = await runEntryPoint(path, { LOG_LEVEL: 'silent' });
    expect(code).toBe(EXIT_CONFIG);
    expect(stderr).toContain('cannot run as its own process');
    for (const variable of missing) expect(stderr).toMatch(new RegExp(`${variable} is not set: .+`));
    expect(stderr).toContain('npm start');
  });

  test('crm with only MONGODB_URI still refuses, for KAFKA_BROKERS alone', async () => {
    const { code, stderr } = await runEntryPoint('services/crm/src/main.ts', {
      MONGODB_URI: 'mongodb://127.0.0.1:1/fieldops',
    });
    expect(code).toBe(EXIT_CONFIG);
    expect(stderr).toContain('KAFKA_BROKERS is not set');
    expect(stderr).not.toContain('MONGODB_URI is not set');
  });

  test('the gateway refuses service addresses that are not host:port', async () => {
    const { code, stderr } = await runEntryPoint('gateway/src/main.ts', {
      ...SPLIT_ENV,
      FIELDOPS_OPS_PORT: '0',
      FIELDOPS_CRM_ADDR: 'crm',
      LOG_LEVEL: 'silent',
    });
    expect(code).toBe(EXIT_CONFIG);
    expect(stderr).toContain('FIELDOPS_CRM_ADDR must be host:port (got "crm")');
    expect(stderr).toContain('FIELDOPS_AUDIT_ADDR is not set');
  });
});

// Enough to pass the split checks; the specs below open no adapter, so nothing is dialed.
const SPLIT_ENV = {
  KAFKA_BROKERS: 'kafka-0.kafka:9092',
  MONGODB_URI: 'mongodb://mongo.example:27017/fieldops',
  REDIS_URL: 'redis://redis.example:6379',
  FIELDOPS_ADMIN_SECRET: 'test-admin-secret',
};
const ENV = { ...SPLIT_ENV, FIELDOPS_OPS_PORT: '0', LOG_LEVEL: 'silent', HOST: '127.0.0.1' };

async function probe(port: number, path: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, text: await res.text() };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('the service process runner', () => {
  test('is ready only between a finished start and stop, drains, then closes in reverse order', async () => {
    const registry = new HealthRegistry();
    const closed: string[] = [];
    const spec: ServiceProcessSpec<'kafkaBrokers'> = {
      name: 'example',
      needs: ['kafkaBrokers'],
      async start({ config, shutdown }) {
        expect(config.kafkaBrokers).toEqual(['kafka-0.kafka:9092']);
        shutdown.push(() => closed.push('store'));
        shutdown.push(() => closed.push('server'));
      },
    };
    const running = await startServiceProcess(spec, {
      env: { ...ENV, FIELDOPS_DRAIN_MS: '400' },
      registry,
    });
    expect(await probe(running.opsPort, '/readyz')).toMatchObject({ status: 200 });
    expect(await probe(running.opsPort, '/healthz')).toEqual({ status: 200, text: '{"ok":true}' });
    expect((await probe(running.opsPort, '/metrics')).text).toContain('process_cpu_seconds_total');

    const stopped = running.stop();
    // While draining: alive, not ready, nothing closed yet.
    const draining = await probe(running.opsPort, '/readyz');
    expect(draining.status).toBe(503);
    expect(JSON.parse(draining.text)).toEqual({ ok: false, checks: { process: false } });
    expect((await probe(running.opsPort, '/healthz')).status).toBe(200);
    expect(closed).toEqual([]);

    await stopped;
    expect(closed).toEqual(['server', 'store']);
    await expect(fetch(`http://127.0.0.1:${running.opsPort}/healthz`)).rejects.toThrow();
    await running.stop(); // idempotent
    expect(closed).toEqual(['server', 'store']);
  });

  test('is not ready while the service is still starting', async () => {
    const registry = new HealthRegistry();
    const gate = deferred();
    const reachedStart = deferred();
    const starting = startServiceProcess(
      {
        name: 'example',
        needs: [],
        async start() {
          reachedStart.resolve();
          await gate.promise;
        },
      },
      { env: ENV, registry },
    );
    await reachedStart.promise;
    // /readyz answers from this registry (the ops server is already up, on an ephemeral port).
    expect(await registry.report()).toEqual({ ok: false, checks: { process: false } });
    gate.resolve();
    const running = await starting;
    expect(await registry.report()).toEqual({ ok: true, checks: { process: true } });
    expect((await probe(running.opsPort, '/readyz')).status).toBe(200);
    await running.stop();
  });

  test('a failed start closes what it had opened and rethrows', async () => {
    const closed: string[] = [];
    const failure = new Error('store unreachable');
    await expect(
      startServiceProcess(
        {
          name: 'example',
          needs: [],
          async start({ shutdown }) {
            shutdown.push(() => closed.push('log'));
            throw failure;
          },
        },
        { env: ENV, registry: new HealthRegistry() },
      ),
    ).rejects.toBe(failure);
    expect(closed).toEqual(['log']);
  });

  test('refuses a missing shared adapter before opening anything', async () => {
    const start = jest.fn(async () => undefined);
    const attempt = startServiceProcess(
      { name: 'crm', needs: ['kafkaBrokers', 'mongodbUri'], start },
      { env: { FIELDOPS_OPS_PORT: '0', LOG_LEVEL: 'silent' }, registry: new HealthRegistry() },
    );
    await expect(attempt).rejects.toBeInstanceOf(SplitRequirementError);
    await expect(attempt).rejects.toMatchObject({ missing: ['kafkaBrokers', 'mongodbUri'] });
    expect(start).not.toHaveBeenCalled();
  });

  test('refuses an ops port that is not a port, naming the variable', async () => {
    const attempt = startServiceProcess(
      { name: 'example', needs: [], start: async () => undefined },
      { env: { ...ENV, FIELDOPS_OPS_PORT: '70000' }, registry: new HealthRegistry() },
    );
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow('FIELDOPS_OPS_PORT must be at most 65535 (got "70000")');
  });
});

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
