import path from 'node:path';
import { ConfigError, GATEWAY_ANSWER_MS, loadConfig } from '../src/config.ts';

const cwd = path.resolve('/srv/fieldops');

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env, cwd);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error('expected loadConfig to refuse the environment');
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    expect(loadConfig({}, cwd)).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.join(cwd, '.data'),
      adminSecret: undefined,
      redisUrl: undefined,
      redisCommandTimeoutMs: 2000,
      mongodbUri: undefined,
      kafkaBrokers: undefined,
      kafkaSecurity: { ssl: false, sasl: undefined },
      logLevel: 'info',
      fsync: 'interval',
      eventRetry: { baseMs: 200, capMs: 30_000 },
      grpcDeadlineMs: 10_000,
      scratchDir: undefined,
      rateLimits: { readsPerMin: 120, writesPerMin: 20 },
      budgets: { emails: 30, sms: 20, charges: 10, publishes: 10, compute: 20 },
      tenantBudgets: { emails: 300, sms: 200, charges: 100, publishes: 100, compute: 200 },
      tokenCaps: { perMember: 10, perTenant: 200 },
      cursorKey: undefined,
      webhookAllowPrivate: false,
      http: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        uploadTimeoutMs: 3_600_000,
        keepAliveTimeoutMs: 65_000,
        maxConnections: 1000,
      },
      trustedProxies: [],
      mongodb: { operationTimeoutMs: 5000, maxPoolSize: 20, waitQueueTimeoutMs: 2000 },
    });
  });

  it('reads the HTTP edge settings, each deadline covering the one before it', () => {
    const edge = loadConfig(
      {
        FIELDOPS_HTTP_HEADERS_TIMEOUT_MS: '500',
        FIELDOPS_HTTP_REQUEST_TIMEOUT_MS: '1000',
        FIELDOPS_HTTP_UPLOAD_TIMEOUT_MS: '2000',
        FIELDOPS_HTTP_KEEP_ALIVE_TIMEOUT_MS: '700',
        FIELDOPS_HTTP_MAX_CONNECTIONS: '12',
      },
      cwd,
    ).http;
    expect(edge).toEqual({
      headersTimeoutMs: 500,
      requestTimeoutMs: 1000,
      uploadTimeoutMs: 2000,
      keepAliveTimeoutMs: 700,
      maxConnections: 12,
    });
    expect(() => loadConfig({ FIELDOPS_HTTP_REQUEST_TIMEOUT_MS: '5000' }, cwd)).toThrow(
      /FIELDOPS_HTTP_HEADERS_TIMEOUT_MS must be at most FIELDOPS_HTTP_REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ FIELDOPS_HTTP_MAX_CONNECTIONS: '0' }, cwd)).toThrow(
      /FIELDOPS_HTTP_MAX_CONNECTIONS must be at least 1/,
    );
  });

  it('refuses a gRPC deadline that is not longer than the store budget of the service it calls', () => {
    // The default deadline covers the default budget with room for the hop and the handler.
    const defaults = loadConfig({}, cwd);
    expect(defaults.grpcDeadlineMs).toBeGreaterThan(defaults.mongodb.operationTimeoutMs);
    for (const deadline of ['5000', '4000']) {
      const message = problemsOf({ FIELDOPS_GRPC_DEADLINE_MS: deadline });
      expect(message).toContain(
        `FIELDOPS_GRPC_DEADLINE_MS (${deadline}) must be longer than FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS (5000)`,
      );
    }
    expect(problemsOf({ FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '12000' })).toContain(
      'FIELDOPS_GRPC_DEADLINE_MS (10000) must be longer than FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS (12000)',
    );
    const raised = loadConfig(
      { FIELDOPS_GRPC_DEADLINE_MS: '1001', FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '1000' },
      cwd,
    );
    expect([raised.grpcDeadlineMs, raised.mongodb.operationTimeoutMs]).toEqual([1001, 1000]);
  });

  it('refuses a gRPC deadline the gateway would not wait for: store budget < call deadline < answer time', () => {
    expect(problemsOf({ FIELDOPS_GRPC_DEADLINE_MS: '30000' })).toContain(
      "FIELDOPS_GRPC_DEADLINE_MS (30000) must be shorter than the gateway's answer time for a write (30000 ms",
    );
    const defaults = loadConfig({}, cwd);
    expect(defaults.mongodb.operationTimeoutMs).toBeLessThan(defaults.grpcDeadlineMs);
    expect(defaults.grpcDeadlineMs).toBeLessThan(GATEWAY_ANSWER_MS);
  });

  it('takes FIELDOPS_SCRATCH_DIR only as an absolute path', () => {
    expect(loadConfig({ FIELDOPS_SCRATCH_DIR: '/scratch/./work' }, cwd).scratchDir).toBe('/scratch/work');
    for (const relative of ['scratch', './scratch', '../tmp']) {
      expect(problemsOf({ FIELDOPS_SCRATCH_DIR: relative })).toContain(
        `FIELDOPS_SCRATCH_DIR must be an absolute path (the folder of a volume sized for it) (got "${relative}")`,
      );
    }
  });

  it('reads FIELDOPS_TRUSTED_PROXIES as addresses and CIDRs, refusing anything else', () => {
    expect(
      loadConfig({ FIELDOPS_TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7,fd00::/8' }, cwd).trustedProxies,
    ).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    for (const bad of ['10.0.0.0/33', 'ingress.local', '10.0.0.0/8/1', 'loopback']) {
      expect(() => loadConfig({ FIELDOPS_TRUSTED_PROXIES: bad }, cwd)).toThrow(
        /FIELDOPS_TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges/,
      );
    }
  });

  it('reads every override', () => {
    const config = loadConfig(
      {
        PORT: '0',
        HOST: '0.0.0.0',
        FIELDOPS_DATA_DIR: 'var/data',
        FIELDOPS_ADMIN_SECRET: 'adm_0123456789abcdef',
        REDIS_URL: 'redis://localhost:6379/0',
        FIELDOPS_REDIS_COMMAND_TIMEOUT_MS: '5000',
        MONGODB_URI: 'mongodb+srv://cluster.example.net/fieldops',
        KAFKA_BROKERS: 'kafka-0:9092, kafka-1:9092',
        KAFKA_SSL: 'true',
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'fieldops',
        KAFKA_SASL_PASSWORD: 'kafka-secret',
        LOG_LEVEL: 'silent',
        FIELDOPS_FSYNC: 'always',
        FIELDOPS_EVENT_RETRY_BASE_MS: '50',
        FIELDOPS_EVENT_RETRY_CAP_MS: '5000',
        FIELDOPS_GRPC_DEADLINE_MS: '15000',
        FIELDOPS_SCRATCH_DIR: '/var/scratch/',
        FIELDOPS_RATE_READS_PER_MIN: '600',
        FIELDOPS_RATE_WRITES_PER_MIN: '60',
        FIELDOPS_BUDGET_EMAILS: '1',
        FIELDOPS_BUDGET_SMS: '2',
        FIELDOPS_BUDGET_CHARGES: '0',
        FIELDOPS_BUDGET_PUBLISHES: '4',
        FIELDOPS_BUDGET_COMPUTE: '5',
        FIELDOPS_TENANT_BUDGET_EMAILS: '10',
        FIELDOPS_TENANT_BUDGET_SMS: '20',
        FIELDOPS_TENANT_BUDGET_CHARGES: '0',
        FIELDOPS_TENANT_BUDGET_PUBLISHES: '40',
        FIELDOPS_TENANT_BUDGET_COMPUTE: '50',
        FIELDOPS_TOKENS_PER_MEMBER: '3',
        FIELDOPS_TOKENS_PER_TENANT: '30',
        FIELDOPS_CURSOR_KEY: 'cursor-key-0123456789abcdef0123456789',
        FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
      },
      cwd,
    );
    expect(config).toEqual({
      port: 0,
      host: '0.0.0.0',
      dataDir: path.join(cwd, 'var/data'),
      adminSecret: 'adm_0123456789abcdef',
      redisUrl: 'redis://localhost:6379/0',
      redisCommandTimeoutMs: 5000,
      mongodbUri: 'mongodb+srv://cluster.example.net/fieldops',
      kafkaBrokers: ['kafka-0:9092', 'kafka-1:9092'],
      kafkaSecurity: {
        ssl: true,
        sasl: { mechanism: 'scram-sha-512', username: 'fieldops', password: 'kafka-secret' },
      },
      logLevel: 'silent',
      fsync: 'always',
      eventRetry: { baseMs: 50, capMs: 5000 },
      grpcDeadlineMs: 15000,
      scratchDir: '/var/scratch/',
      rateLimits: { readsPerMin: 600, writesPerMin: 60 },
      budgets: { emails: 1, sms: 2, charges: 0, publishes: 4, compute: 5 },
      tenantBudgets: { emails: 10, sms: 20, charges: 0, publishes: 40, compute: 50 },
      tokenCaps: { perMember: 3, perTenant: 30 },
      cursorKey: 'cursor-key-0123456789abcdef0123456789',
      webhookAllowPrivate: true,
      // Read in their own tests below.
      http: loadConfig({}, cwd).http,
      trustedProxies: [],
      // Read in store.mongo-bounds.test.ts.
      mongodb: loadConfig({}, cwd).mongodb,
    });
  });

  it('takes Kafka SASL credentials only as a whole set, with a known mechanism', () => {
    expect(problemsOf({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' })).toContain(
      'KAFKA_SASL_PASSWORD must be set when KAFKA_SASL_MECHANISM is',
    );
    expect(problemsOf({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toContain(
      'KAFKA_SASL_MECHANISM must be set with KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD',
    );
    const unknown = problemsOf({ KAFKA_SASL_MECHANISM: 'oauthbearer', KAFKA_SASL_PASSWORD: 'hunter2' });
    expect(unknown).toContain('KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512');
    expect(problemsOf({ KAFKA_SSL: 'maybe' })).toContain('KAFKA_SSL must be a boolean');
  });

  it('takes a Kafka namespace that is a legal topic-name prefix', () => {
    expect(loadConfig({ KAFKA_NAMESPACE: 'staging-eu' }, cwd).kafkaNamespace).toBe('staging-eu');
    expect(problemsOf({ KAFKA_NAMESPACE: 'a.b' })).toContain('KAFKA_NAMESPACE must be 1-64 of [A-Za-z0-9_-]');
  });

  it('takes a Redis namespace of the same alphabet', () => {
    expect(loadConfig({ REDIS_NAMESPACE: 'staging-eu' }, cwd).redisNamespace).toBe('staging-eu');
    expect(loadConfig({}, cwd).redisNamespace).toBeUndefined();
    expect(problemsOf({ REDIS_NAMESPACE: 'a:b' })).toContain('REDIS_NAMESPACE must be 1-64 of [A-Za-z0-9_-]');
  });

  it('keeps an absolute data dir as given and ignores unrelated variables', () => {
    const config = loadConfig({ FIELDOPS_DATA_DIR: '/var/lib/fieldops', PATH: '/usr/bin' }, cwd);
    expect(config.dataDir).toBe('/var/lib/fieldops');
  });

  it('treats a blank variable as unset', () => {
    expect(loadConfig({ PORT: '', LOG_LEVEL: '  ' }, cwd)).toMatchObject({ port: 8080, logLevel: 'info' });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['FIELDOPS_GRPC_DEADLINE_MS', '0'],
    ['FIELDOPS_RATE_READS_PER_MIN', '-5'],
    ['FIELDOPS_RATE_WRITES_PER_MIN', '0'],
    ['FIELDOPS_BUDGET_SMS', 'lots'],
  ])('names %s when it holds the bad number %p', (variable, value) => {
    const message = problemsOf({ [variable]: value });
    expect(message).toContain(variable);
    expect(message).toContain(`"${value}"`);
  });

  it('refuses values outside an enum, naming the variable and the choices', () => {
    expect(problemsOf({ LOG_LEVEL: 'verbose' })).toMatch(/LOG_LEVEL must be one of .*silent/);
    expect(problemsOf({ FIELDOPS_FSYNC: 'sometimes' })).toMatch(/FIELDOPS_FSYNC must be one of interval/);
    expect(problemsOf({ LOG_FORMAT: 'pretty' })).toMatch(/LOG_FORMAT must be one of json, readable/);
  });

  it('reads booleans strictly, so "false" is not true', () => {
    expect(loadConfig({ FIELDOPS_WEBHOOK_ALLOW_PRIVATE: 'false' }, cwd).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ FIELDOPS_WEBHOOK_ALLOW_PRIVATE: 'true' }, cwd).webhookAllowPrivate).toBe(true);
    expect(problemsOf({ FIELDOPS_WEBHOOK_ALLOW_PRIVATE: 'maybe' })).toContain(
      'FIELDOPS_WEBHOOK_ALLOW_PRIVATE',
    );
  });

  it('refuses malformed adapter URLs without echoing what may be a credential', () => {
    const message = problemsOf({ REDIS_URL: 'http://user:s3cret@cache:6379', MONGODB_URI: 'mongo://x' });
    expect(message).toContain('REDIS_URL');
    expect(message).toContain('MONGODB_URI');
    expect(message).not.toContain('s3cret');
  });

  it('refuses a broker list that is not host:port pairs', () => {
    expect(problemsOf({ KAFKA_BROKERS: 'kafka-0, kafka-1:9092' })).toContain('KAFKA_BROKERS');
  });

  it('lists every problem at once', () => {
    const message = problemsOf({ PORT: 'x', FIELDOPS_BUDGET_EMAILS: 'y' });
    expect(message).toContain('PORT');
    expect(message).toContain('FIELDOPS_BUDGET_EMAILS');
  });
});
