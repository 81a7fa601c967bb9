// The process runner every service entry point shares (what a Deployment relies on): ready only
// while it can serve, drains on stop, closes what it opened in reverse order, and refuses a
// missing shared adapter or a bad ops port before opening anything.
import { jest } from '@jest/globals';
import { ConfigError } from '../src/config.ts';
import { HealthRegistry } from '../src/health.ts';
import { startServiceProcess } from '../src/process/service-process.ts';
import type { ServiceProcessSpec } from '../src/process/service-process.ts';
import { SplitRequirementError } from '../src/process/split-requirements.ts';

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

  test('serves /metrics only with FIELDOPS_METRICS_TOKEN as bearer when set; probes stay open', async () => {
    const token = 'metrics-token-of-the-chart-0123';
    const running = await startServiceProcess(
      { name: 'example', needs: [], async start() {} },
      { env: { ...ENV, FIELDOPS_METRICS_TOKEN: token }, registry: new HealthRegistry() },
    );
    const scrape = (authorization?: string) =>
      fetch(`http://127.0.0.1:${running.opsPort}/metrics`, {
        headers: authorization ? { authorization } : {},
      });
    for (const refused of [await scrape(), await scrape('Bearer wrong-token'), await scrape(token)]) {
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await refused.text()).toMatch(/needs Authorization: Bearer <FIELDOPS_METRICS_TOKEN>/);
    }
    const served = await scrape(`Bearer ${token}`);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('process_cpu_seconds_total');
    expect((await probe(running.opsPort, '/healthz')).status).toBe(200);
    expect((await probe(running.opsPort, '/readyz')).status).toBe(200);
    await running.stop();
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
