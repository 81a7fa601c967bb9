// Typed configuration from the environment. Everything is read and validated once at start-up so a
// bad value stops the process with the variable's name, instead of surfacing as odd behaviour later.
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { LOG_FORMATS } from './log-readable.ts';

/**
 * Deadline of a gRPC call that sets none (FIELDOPS_GRPC_DEADLINE_MS). It must cover the callee's
 * whole store budget (FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS, 5 s by default: a read's maxTimeMS, or a
 * commit retried through write conflicts or a failover) plus the hop and the handler's own work;
 * a deadline at or under that budget gives up on a call whose store would still have answered. So
 * 10 s: twice the default store budget, and loadConfig refuses a deadline that is not above it.
 */
export const DEFAULT_GRPC_DEADLINE_MS = 10_000;
/**
 * How long the gateway holds a keyed write (its idempotency-key lock) before another request with
 * the key may run: its answer time for a write. The gRPC deadline must be shorter, so a retry with
 * the same key never runs beside a call still in flight (store budget < call deadline < this).
 */
export const GATEWAY_ANSWER_MS = 30_000;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const FSYNC_MODES = ['interval', 'always', 'never'] as const;
export type FsyncMode = (typeof FSYNC_MODES)[number];

export interface Config {
  port: number;
  host: string;
  /** Absolute: a relative FIELDOPS_DATA_DIR is resolved once, so a later chdir cannot move the data. */
  dataDir: string;
  /** Operator bearer for /admin/v1; unset means the platform generates and prints one. */
  adminSecret: string | undefined;
  /** Each adapter URL selects the production adapter; unset keeps the embedded default. */
  redisUrl: string | undefined;
  /** A Redis command not answered in this long fails its request as 503 unavailable (retryable). */
  redisCommandTimeoutMs: number;
  /** Prefix of every Redis key, so deployments (and test clusters) can share one Redis. */
  redisNamespace: string | undefined;
  mongodbUri: string | undefined;
  kafkaBrokers: string[] | undefined;
  /** TLS and SASL for the Kafka connection (managed clusters require them). */
  kafkaSecurity: { ssl: boolean; sasl: KafkaSasl | undefined };
  /** Prefix of every topic and consumer group on Kafka, so deployments can share a cluster. */
  kafkaNamespace: string | undefined;
  /**
   * Back-off of an event consumer whose record fails for a retryable reason, or whose broker is
   * away: from baseMs, doubling, never longer than capMs, for as long as the failure lasts.
   */
  eventRetry: { baseMs: number; capMs: number };
  logLevel: LogLevel;
  /** How often the embedded stores flush to disk: a durability/throughput trade-off. */
  fsync: FsyncMode;
  /** Deadline of each gRPC call that sets none; always longer than mongodb.operationTimeoutMs. */
  grpcDeadlineMs: number;
  /**
   * Where large working files go (FIELDOPS_SCRATCH_DIR, absolute): exports' staging and COLMAP's
   * workspaces. Unset, each keeps its own place: exports under the data dir, COLMAP under os.tmpdir().
   */
  scratchDir: string | undefined;
  rateLimits: { readsPerMin: number; writesPerMin: number };
  /** Consequence budgets per token per hour. */
  budgets: { emails: number; sms: number; charges: number; publishes: number; compute: number };
  /**
   * Ceilings per tenant per hour on each consequence kind, across all of its tokens, so minting
   * tokens cannot multiply a budget (docs/security.md, "Budgets and tokens").
   */
  tenantBudgets: { emails: number; sms: number; charges: number; publishes: number; compute: number };
  /** Active (unrevoked, unexpired) API tokens a member may hold, and a tenant may hold in all. */
  tokenCaps: { perMember: number; perTenant: number };
  /**
   * Key of the HMAC list cursors carry (FIELDOPS_CURSOR_KEY); unset, the gateway derives one from
   * the admin secret (itself generated into the data dir when unset).
   */
  cursorKey: string | undefined;
  /** Lets webhooks target loopback/private addresses (tests and local development only). */
  webhookAllowPrivate: boolean;
  /** What the gateway's HTTP listener allows a client (slow and idle clients are cut off). */
  http: HttpEdge;
  /**
   * Proxies whose X-Forwarded-For is believed (CIDRs or addresses, Express `trust proxy`); empty
   * means the socket's address is the client's.
   */
  trustedProxies: string[];
  /** Bounds of each MongoDB store's client (used only with MONGODB_URI). */
  mongodb: MongoBounds;
}

/** How long and how many: what one service process may ask of MongoDB at once. */
export interface MongoBounds {
  /**
   * Each read's server-side limit (maxTimeMS), each commit's (maxCommitTimeMS), the majority write
   * concern's wait (wtimeoutMS), and how long a transaction is retried after write conflicts.
   */
  operationTimeoutMs: number;
  /** Connections per store (maxPoolSize). */
  maxPoolSize: number;
  /** How long an operation waits for a pooled connection before `unavailable` (waitQueueTimeoutMS). */
  waitQueueTimeoutMs: number;
}

export const DEFAULT_MONGO_BOUNDS: MongoBounds = {
  operationTimeoutMs: 5_000,
  maxPoolSize: 20,
  waitQueueTimeoutMs: 2_000,
};

export interface HttpEdge {
  /** A connection must have sent a request's headers this long after connecting (or sending the previous one). */
  headersTimeoutMs: number;
  /** An API request's body must have arrived this long after its headers (408 otherwise). */
  requestTimeoutMs: number;
  /** The same for an upload to the embedded blob store's presigned URLs (/blobs). */
  uploadTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Connections this process holds at once; more are closed at accept. */
  maxConnections: number;
}

export type BudgetKind = keyof Config['budgets'];

export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

export interface KafkaSasl {
  mechanism: (typeof KAFKA_SASL_MECHANISMS)[number];
  username: string;
  password: string;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.problems = problems;
    this.name = 'ConfigError';
  }
}

// Values of these may carry credentials, so an error names the variable but never echoes the value.
const SECRET_VARIABLES = new Set([
  'FIELDOPS_ADMIN_SECRET',
  'FIELDOPS_CURSOR_KEY',
  'REDIS_URL',
  'MONGODB_URI',
  'KAFKA_SASL_PASSWORD',
]);

function wholeNumber(fallback: number, min: number, max: number) {
  return z
    .string()
    .regex(/^\d+$/, `must be a whole number between ${min} and ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback);
}

const rate = (fallback: number) => wholeNumber(fallback, 1, 1_000_000);
// Zero is a legitimate budget: it switches a consequence off for every token.
const budget = (fallback: number) => wholeNumber(fallback, 0, 1_000_000);

const brokerList = z
  .string()
  .transform((value) => value.split(',').map((broker) => broker.trim()))
  .pipe(z.array(z.string().regex(/^[^\s:]+:\d+$/, 'must be a comma-separated list of host:port')).min(1));

const schema = z.object({
  PORT: wholeNumber(8080, 0, 65535),
  HOST: z.string().default('127.0.0.1'),
  FIELDOPS_DATA_DIR: z.string().default('./.data'),
  FIELDOPS_ADMIN_SECRET: z.string().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 of [A-Za-z0-9_-]')
    .optional(),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URI')
    .optional(),
  KAFKA_BROKERS: brokerList.optional(),
  KAFKA_SSL: z.stringbool({ error: 'must be a boolean (1/0, true/false, yes/no, on/off)' }).default(false),
  KAFKA_SASL_MECHANISM: z
    .enum(KAFKA_SASL_MECHANISMS, { error: `must be one of ${KAFKA_SASL_MECHANISMS.join(', ')}` })
    .optional(),
  KAFKA_SASL_USERNAME: z.string().optional(),
  KAFKA_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 of [A-Za-z0-9_-]')
    .optional(),
  KAFKA_SASL_PASSWORD: z.string().optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  // Read by log.ts (logFormatOf); checked here so a misspelt value stops the start like any other.
  LOG_FORMAT: z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(', ')}` }).optional(),
  FIELDOPS_FSYNC: z
    .enum(FSYNC_MODES, { error: `must be one of ${FSYNC_MODES.join(', ')}` })
    .default('interval'),
  // Absolute: it is a volume the deployment mounts, and a relative path would move with the cwd.
  FIELDOPS_SCRATCH_DIR: z
    .string()
    .refine(
      (value) => path.isAbsolute(value),
      'must be an absolute path (the folder of a volume sized for it)',
    )
    .optional(),
  FIELDOPS_GRPC_DEADLINE_MS: wholeNumber(DEFAULT_GRPC_DEADLINE_MS, 1, 600_000),
  FIELDOPS_RATE_READS_PER_MIN: rate(120),
  FIELDOPS_RATE_WRITES_PER_MIN: rate(20),
  FIELDOPS_BUDGET_EMAILS: budget(30),
  FIELDOPS_BUDGET_SMS: budget(20),
  FIELDOPS_BUDGET_CHARGES: budget(10),
  FIELDOPS_BUDGET_PUBLISHES: budget(10),
  FIELDOPS_BUDGET_COMPUTE: budget(20),
  // Ten tokens' worth of each per-token budget: a tenant's busy hour, not one member's multiplied.
  FIELDOPS_TENANT_BUDGET_EMAILS: budget(300),
  FIELDOPS_TENANT_BUDGET_SMS: budget(200),
  FIELDOPS_TENANT_BUDGET_CHARGES: budget(100),
  FIELDOPS_TENANT_BUDGET_PUBLISHES: budget(100),
  FIELDOPS_TENANT_BUDGET_COMPUTE: budget(200),
  FIELDOPS_TOKENS_PER_MEMBER: wholeNumber(10, 1, 1_000_000),
  FIELDOPS_TOKENS_PER_TENANT: wholeNumber(200, 1, 1_000_000),
  FIELDOPS_CURSOR_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  FIELDOPS_WEBHOOK_ALLOW_PRIVATE: z
    .stringbool({ error: 'must be a boolean (1/0, true/false, yes/no, on/off)' })
    .default(false),
  FIELDOPS_HTTP_HEADERS_TIMEOUT_MS: wholeNumber(10_000, 100, 600_000),
  FIELDOPS_HTTP_REQUEST_TIMEOUT_MS: wholeNumber(30_000, 100, 3_600_000),
  FIELDOPS_HTTP_UPLOAD_TIMEOUT_MS: wholeNumber(3_600_000, 100, 24 * 3_600_000),
  FIELDOPS_HTTP_KEEP_ALIVE_TIMEOUT_MS: wholeNumber(65_000, 100, 600_000),
  FIELDOPS_HTTP_MAX_CONNECTIONS: wholeNumber(1000, 1, 1_000_000),
  FIELDOPS_REDIS_COMMAND_TIMEOUT_MS: wholeNumber(2_000, 100, 60_000),
  FIELDOPS_EVENT_RETRY_BASE_MS: wholeNumber(200, 1, 60_000),
  FIELDOPS_EVENT_RETRY_CAP_MS: wholeNumber(30_000, 1, 600_000),
  FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: wholeNumber(DEFAULT_MONGO_BOUNDS.operationTimeoutMs, 100, 600_000),
  FIELDOPS_MONGODB_MAX_POOL_SIZE: wholeNumber(DEFAULT_MONGO_BOUNDS.maxPoolSize, 1, 1_000),
  FIELDOPS_MONGODB_WAIT_QUEUE_TIMEOUT_MS: wholeNumber(DEFAULT_MONGO_BOUNDS.waitQueueTimeoutMs, 1, 600_000),
  FIELDOPS_TRUSTED_PROXIES: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .refine(
            isAddressOrCidr,
            'must be a comma-separated list of IP addresses or CIDR ranges, such as 10.0.0.0/8,fd00::/8',
          ),
      ),
    )
    .default([]),
});

/** `10.0.0.0/8`, `10.1.2.3`, `fd00::/8`, `::1`: what Express `trust proxy` takes as a list. */
function isAddressOrCidr(value: string): boolean {
  const [address = '', bits, extra] = value.split('/');
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

type Variable = keyof typeof schema.shape;

/** Only the variables we read, with blanks dropped: `PORT=` in a .env file means "use the default". */
function pickVariables(env: NodeJS.ProcessEnv): Partial<Record<Variable, string>> {
  const picked: Partial<Record<Variable, string>> = {};
  for (const name of Object.keys(schema.shape) as Variable[]) {
    const value = env[name]?.trim();
    if (value) picked[name] = value;
  }
  return picked;
}

function describeIssue(issue: z.core.$ZodIssue, raw: Partial<Record<string, string>>): string {
  const variable = String(issue.path[0] ?? '(environment)');
  const value = raw[variable];
  const shown = value === undefined || SECRET_VARIABLES.has(variable) ? '' : ` (got "${value}")`;
  return `${variable} ${issue.message}${shown}`;
}

/** Reads and validates the environment. Pure: tests pass their own env object (and cwd). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const raw = pickVariables(env);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => describeIssue(issue, raw)));
  const v = parsed.data;
  return {
    port: v.PORT,
    host: v.HOST,
    dataDir: path.resolve(cwd, v.FIELDOPS_DATA_DIR),
    adminSecret: v.FIELDOPS_ADMIN_SECRET,
    redisUrl: v.REDIS_URL,
    redisCommandTimeoutMs: v.FIELDOPS_REDIS_COMMAND_TIMEOUT_MS,
    redisNamespace: v.REDIS_NAMESPACE,
    mongodbUri: v.MONGODB_URI,
    kafkaBrokers: v.KAFKA_BROKERS,
    kafkaSecurity: { ssl: v.KAFKA_SSL, sasl: kafkaSasl(v) },
    kafkaNamespace: v.KAFKA_NAMESPACE,
    eventRetry: {
      baseMs: v.FIELDOPS_EVENT_RETRY_BASE_MS,
      capMs: Math.max(v.FIELDOPS_EVENT_RETRY_BASE_MS, v.FIELDOPS_EVENT_RETRY_CAP_MS),
    },
    logLevel: v.LOG_LEVEL,
    fsync: v.FIELDOPS_FSYNC,
    grpcDeadlineMs: grpcDeadline(v),
    scratchDir: v.FIELDOPS_SCRATCH_DIR === undefined ? undefined : path.normalize(v.FIELDOPS_SCRATCH_DIR),
    rateLimits: { readsPerMin: v.FIELDOPS_RATE_READS_PER_MIN, writesPerMin: v.FIELDOPS_RATE_WRITES_PER_MIN },
    budgets: {
      emails: v.FIELDOPS_BUDGET_EMAILS,
      sms: v.FIELDOPS_BUDGET_SMS,
      charges: v.FIELDOPS_BUDGET_CHARGES,
      publishes: v.FIELDOPS_BUDGET_PUBLISHES,
      compute: v.FIELDOPS_BUDGET_COMPUTE,
    },
    tenantBudgets: {
      emails: v.FIELDOPS_TENANT_BUDGET_EMAILS,
      sms: v.FIELDOPS_TENANT_BUDGET_SMS,
      charges: v.FIELDOPS_TENANT_BUDGET_CHARGES,
      publishes: v.FIELDOPS_TENANT_BUDGET_PUBLISHES,
      compute: v.FIELDOPS_TENANT_BUDGET_COMPUTE,
    },
    tokenCaps: { perMember: v.FIELDOPS_TOKENS_PER_MEMBER, perTenant: v.FIELDOPS_TOKENS_PER_TENANT },
    cursorKey: v.FIELDOPS_CURSOR_KEY,
    webhookAllowPrivate: v.FIELDOPS_WEBHOOK_ALLOW_PRIVATE,
    http: httpEdge(v),
    trustedProxies: v.FIELDOPS_TRUSTED_PROXIES,
    mongodb: {
      operationTimeoutMs: v.FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS,
      maxPoolSize: v.FIELDOPS_MONGODB_MAX_POOL_SIZE,
      waitQueueTimeoutMs: v.FIELDOPS_MONGODB_WAIT_QUEUE_TIMEOUT_MS,
    },
  };
}

/**
 * A gRPC deadline no longer than the callee's store budget cuts off a call whose store would still
 * have answered (a slow read, a commit retried through a failover): the caller reports 503 while
 * the write may still land. So the deadline must be longer than the budget, refused otherwise.
 */
function grpcDeadline(v: z.output<typeof schema>): number {
  const deadline = v.FIELDOPS_GRPC_DEADLINE_MS;
  const budget = v.FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS;
  if (deadline <= budget) {
    throw new ConfigError([
      `FIELDOPS_GRPC_DEADLINE_MS (${deadline}) must be longer than FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS (${budget}): ` +
        `a call must outlast the store budget of the service it calls, or it gives up on answers still coming; ` +
        `raise FIELDOPS_GRPC_DEADLINE_MS (default ${DEFAULT_GRPC_DEADLINE_MS}) or lower the store budget.`,
    ]);
  }
  if (deadline >= GATEWAY_ANSWER_MS) {
    throw new ConfigError([
      `FIELDOPS_GRPC_DEADLINE_MS (${deadline}) must be shorter than the gateway's answer time for a write ` +
        `(${GATEWAY_ANSWER_MS} ms, how long it holds an idempotency key): a retry with the same key must not ` +
        `run beside a call still in flight; store budget < gRPC deadline < gateway answer time.`,
    ]);
  }
  return deadline;
}

/** Each deadline covers the one before it: headers, then an API body, then an upload's body. */
function httpEdge(v: z.output<typeof schema>): HttpEdge {
  const edge: HttpEdge = {
    headersTimeoutMs: v.FIELDOPS_HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: v.FIELDOPS_HTTP_REQUEST_TIMEOUT_MS,
    uploadTimeoutMs: v.FIELDOPS_HTTP_UPLOAD_TIMEOUT_MS,
    keepAliveTimeoutMs: v.FIELDOPS_HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: v.FIELDOPS_HTTP_MAX_CONNECTIONS,
  };
  const problems = [
    ...(edge.headersTimeoutMs > edge.requestTimeoutMs
      ? ['FIELDOPS_HTTP_HEADERS_TIMEOUT_MS must be at most FIELDOPS_HTTP_REQUEST_TIMEOUT_MS']
      : []),
    ...(edge.requestTimeoutMs > edge.uploadTimeoutMs
      ? ['FIELDOPS_HTTP_REQUEST_TIMEOUT_MS must be at most FIELDOPS_HTTP_UPLOAD_TIMEOUT_MS']
      : []),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  return edge;
}

/** SASL credentials come as a set: a mechanism with its user and password, or none of the three. */
function kafkaSasl(v: z.output<typeof schema>): KafkaSasl | undefined {
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = v;
  if (mechanism === undefined) {
    if (username !== undefined || password !== undefined) {
      throw new ConfigError([
        `KAFKA_SASL_MECHANISM must be set with KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD (one of ${KAFKA_SASL_MECHANISMS.join(', ')})`,
      ]);
    }
    return undefined;
  }
  const missing = [
    ...(username === undefined ? ['KAFKA_SASL_USERNAME'] : []),
    ...(password === undefined ? ['KAFKA_SASL_PASSWORD'] : []),
  ];
  if (missing.length > 0) {
    throw new ConfigError(missing.map((name) => `${name} must be set when KAFKA_SASL_MECHANISM is`));
  }
  return { mechanism, username: username ?? '', password: password ?? '' };
}
