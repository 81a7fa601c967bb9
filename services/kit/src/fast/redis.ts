// The Redis fast-state adapter (ioredis), shared by every gateway replica. Read-modify-write
// operations are Lua scripts so they are atomic on the server, and they read the server's TIME so
// replicas with skewed clocks still agree on refills and budget windows.
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { AppError } from '../errors.ts';
import type { BucketResult, BudgetResult, FastState } from './port.ts';
import { checkBucketArgs, checkBudgetArgs, checkTtl } from './args.ts';

const DEFAULT_KEY_PREFIX = 'fieldops:fast:';
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/**
 * A stuck connection must fail a request, not hang it: callers decide how to degrade. The default
 * of FIELDOPS_REDIS_COMMAND_TIMEOUT_MS; a node whose cores are held by reconstruction work can
 * need more.
 */
const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;
const MAX_RECONNECT_DELAY_MS = 2_000;
/** Absorbs floating-point drift in refill arithmetic so 0.9999999 tokens count as 1. */
const TOKEN_EPSILON = 1e-9;

export interface RedisFastStateOptions {
  /** redis://[user:password@]host:port[/db] or rediss://... */
  url: string;
  /** Prepended to every key, so several deployments (or test runs) can share one Redis. */
  keyPrefix?: string;
  /** REDIS_NAMESPACE: the deployment's keys are `<namespace>:fieldops:fast:...` (ignored with keyPrefix). */
  namespace?: string;
  /** Bound on the whole startup: TCP connect, handshake and ready check. */
  connectTimeoutMs?: number;
  /** Bound on each command once connected (default 2 s). */
  commandTimeoutMs?: number;
}

export async function connectRedisFastState(options: RedisFastStateOptions): Promise<FastState> {
  const redis = await openConnection(
    options.url,
    options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
  );
  const namespaced = options.namespace ? `${options.namespace}:${DEFAULT_KEY_PREFIX}` : DEFAULT_KEY_PREFIX;
  return redisFastState(redis, options.keyPrefix ?? namespaced);
}

// ---- connection ----

async function openConnection(url: string, timeoutMs: number, commandTimeoutMs: number): Promise<Redis> {
  const target = redactUrl(url);
  let started = false;
  let lastError: Error | undefined;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: commandTimeoutMs,
    // With the queue off, commands sent while the connection is down fail at once instead of
    // piling up behind a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // No reconnecting until the first connection is up, so an unreachable Redis fails startup
    // once and fast; afterwards a dropped connection is retried with capped backoff.
    retryStrategy: (attempt) => (started ? Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS) : null),
  });
  // Listening keeps ioredis from printing every connection error; failed commands reject on their
  // own, and the last error explains a failed startup.
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await withTimeout(redis.connect(), timeoutMs);
  } catch (error) {
    drop(redis);
    // The error event says why, but only its message is kept: it carries the handshake command,
    // i.e. the password. The rejection itself (the cause) holds no credentials.
    throw new Error(startupFailure(target, lastError ?? error), { cause: error });
  }
  // ioredis reports some handshake failures (e.g. SELECT of a database that does not exist) as
  // events and still becomes ready, on the wrong database: refuse to run there.
  if (lastError !== undefined) {
    drop(redis);
    throw new Error(startupFailure(target, lastError));
  }
  started = true;
  return redis;
}

function startupFailure(target: string, error: unknown): string {
  return `Cannot connect to Redis at ${target}: ${messageOf(error)}`;
}

/** The URL without credentials or query (which may hold a password), for error messages. */
function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('The Redis URL is not a valid URL (expected redis://host:port/db).');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error(`The Redis URL must start with redis:// or rediss://, not ${parsed.protocol}//.`);
  }
  const db = parsed.pathname === '/' ? '' : parsed.pathname;
  return `${parsed.protocol}//${parsed.host}${db}`;
}

function messageOf(error: unknown): string {
  // Duck-typed, not instanceof: socket errors can come from another realm (e.g. under a test VM).
  if (
    typeof error === 'object' &&
    error !== null &&
    'message' in error &&
    typeof error.message === 'string'
  ) {
    return error.message;
  }
  return String(error);
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ready connection within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** QUIT lets pending replies arrive; a connection that is already down can only be dropped. */
async function quit(redis: Redis): Promise<void> {
  try {
    await redis.quit();
  } catch {
    drop(redis);
  }
}

function drop(redis: Redis): void {
  // Disconnecting an ended client would arm a 2 s timer waiting for a close that already happened.
  if (redis.status !== 'end') redis.disconnect();
}

// ---- scripts ----

interface Script {
  lua: string;
  sha: string;
}

function script(lua: string): Script {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/**
 * Token bucket. KEYS[1]: hash {tokens, at}. ARGV: capacity, refillPerSecond, cost.
 * Reply: {allowed 0|1, whole tokens left, retryAfterMs}. A refused take writes nothing; the key
 * expires once the bucket would be full again, which is the same as having no key.
 */
const TAKE_TOKEN = script(`
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = capacity
if state[1] and state[2] then
  tokens = math.min(capacity, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * rate / 1000)
end
if tokens + ${TOKEN_EPSILON} < cost then
  return {0, math.floor(tokens + ${TOKEN_EPSILON}), math.ceil((cost - tokens) * 1000 / rate)}
end
tokens = math.max(0, tokens - cost)
redis.call('HSET', KEYS[1], 'tokens', tokens, 'at', now)
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((capacity - tokens) * 1000 / rate)))
return {1, math.floor(tokens + ${TOKEN_EPSILON}), 0}
`);

/**
 * Fixed window shared by spend and peek. KEYS[1]: hash {start, used}. ARGV: limit, windowMs, and
 * the placement: 'aligned' (multiples of windowMs) or 'from-first' (the stored window while it
 * lasts, else one opening now).
 */
const WINDOW_PRELUDE = `
local limit = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'start', 'used')
local stored = tonumber(state[1])
local start = now - (now % windowMs)
if ARGV[3] == 'from-first' then
  start = now
  if stored ~= nil and now < stored + windowMs then start = stored end
end
local resetMs = start + windowMs - now
local used = 0
if stored == start then used = tonumber(state[2]) end
`;

/** ARGV[4]: amount. Reply: {allowed 0|1, used, resetMs}. Over the limit, nothing is added. */
const SPEND_BUDGET = script(`${WINDOW_PRELUDE}
local amount = tonumber(ARGV[4])
if used + amount > limit then return {0, used, resetMs} end
used = used + amount
redis.call('HSET', KEYS[1], 'start', start, 'used', used)
redis.call('PEXPIRE', KEYS[1], resetMs)
return {1, used, resetMs}
`);

/** Reply: {budget left 0|1, used, resetMs}. */
const PEEK_BUDGET = script(`${WINDOW_PRELUDE}
if used < limit then return {1, used, resetMs} end
return {0, used, resetMs}
`);

/** Compare-and-delete, so an owner whose lock expired cannot release its successor's. */
const RELEASE_LOCK = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

async function runScript(
  redis: Redis,
  { lua, sha }: Script,
  key: string,
  args: (number | string)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(sha, 1, key, ...args);
  } catch (error) {
    // Redis forgets scripts on restart, failover or SCRIPT FLUSH; EVAL runs and re-caches it.
    if (!messageOf(error).startsWith('NOSCRIPT')) throw error;
    return redis.eval(lua, 1, key, ...args);
  }
}

const isInteger = (value: unknown): value is number => Number.isInteger(value);

/** Every script replies with three integers. */
function threeIntegers(reply: unknown): [number, number, number] {
  if (Array.isArray(reply) && reply.length === 3) {
    const [first, second, third]: unknown[] = reply;
    if (isInteger(first) && isInteger(second) && isInteger(third)) return [first, second, third];
  }
  throw new Error(`Unexpected reply from a fast-state script: ${JSON.stringify(reply)}`);
}

function budgetResult(reply: unknown, limit: number): BudgetResult {
  const [allowed, used, resetMs] = threeIntegers(reply);
  return { allowed: allowed === 1, used, remaining: Math.max(0, limit - used), resetMs };
}

// ---- the port ----

type Kind = 'bucket' | 'budget' | 'lock' | 'value';

function redisFastState(redis: Redis, prefix: string): FastState {
  return unavailableOnFailure(rawRedisFastState(redis, prefix));
}

function rawRedisFastState(redis: Redis, prefix: string): FastState {
  // Each kind has its own namespace, so a lock, a bucket and a value under one key never collide.
  const keyOf = (kind: Kind, key: string): string => `${prefix}${kind}:${key}`;
  let closing: Promise<void> | undefined;

  return {
    async takeToken(key, capacity, refillPerSecond, cost = 1): Promise<BucketResult> {
      checkBucketArgs(capacity, refillPerSecond, cost);
      const reply = await runScript(redis, TAKE_TOKEN, keyOf('bucket', key), [
        capacity,
        refillPerSecond,
        cost,
      ]);
      const [allowed, remaining, retryAfterMs] = threeIntegers(reply);
      return { allowed: allowed === 1, remaining, retryAfterMs };
    },

    async spendBudget(key, limit, windowMs, amount, window = 'aligned') {
      checkBudgetArgs(limit, windowMs, amount);
      return budgetResult(
        await runScript(redis, SPEND_BUDGET, keyOf('budget', key), [limit, windowMs, window, amount]),
        limit,
      );
    },

    async peekBudget(key, limit, windowMs, window = 'aligned') {
      checkBudgetArgs(limit, windowMs, 0);
      return budgetResult(
        await runScript(redis, PEEK_BUDGET, keyOf('budget', key), [limit, windowMs, window]),
        limit,
      );
    },

    async acquireLock(key, ttlMs) {
      checkTtl(ttlMs);
      const owner = randomUUID();
      const stored = await redis.set(keyOf('lock', key), owner, 'PX', Math.ceil(ttlMs), 'NX');
      return stored === 'OK' ? owner : null;
    },

    async releaseLock(key, owner) {
      return (await runScript(redis, RELEASE_LOCK, keyOf('lock', key), [owner])) === 1;
    },

    async put(key, value, ttlMs) {
      checkTtl(ttlMs);
      await redis.set(keyOf('value', key), value, 'PX', Math.ceil(ttlMs));
    },

    async putIfAbsent(key, value, ttlMs) {
      checkTtl(ttlMs);
      return (await redis.set(keyOf('value', key), value, 'PX', Math.ceil(ttlMs), 'NX')) === 'OK';
    },

    async get(key) {
      return redis.get(keyOf('value', key));
    },

    async take(key) {
      return redis.getdel(keyOf('value', key));
    },

    async delete(key) {
      await redis.del(keyOf('value', key));
    },

    async close() {
      closing ??= quit(redis);
      await closing;
    },
  };
}

/**
 * A Redis that stops answering mid-life is the spec's `unavailable` (503, retry later), not a
 * fault of ours (500). Argument errors (RangeError) are programmer errors and stay as they are.
 */
function unavailableOnFailure(state: FastState): FastState {
  const guarded = Object.entries(state).map(
    ([name, method]: [string, (...args: unknown[]) => Promise<unknown>]) => [
      name,
      name === 'close'
        ? method
        : (...args: unknown[]) =>
            method(...args).catch((error: unknown) => {
              if (error instanceof RangeError) throw error;
              throw new AppError(
                'unavailable',
                'Rate limits and confirmations cannot be checked right now; retry shortly.',
                {},
                { cause: error },
              );
            }),
    ],
  );
  return Object.fromEntries(guarded) as unknown as FastState;
}
