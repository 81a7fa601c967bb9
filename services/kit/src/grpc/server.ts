// The gRPC server every service runs. Handlers are plain async functions; the wrapper around them
// decodes the request context, logs, measures, turns AppError into a status and makes sure that
// nothing a handler does (throwing, rejecting, returning an unencodable value) can crash the process.
import { Server, ServerCredentials } from '@grpc/grpc-js';
import type {
  MethodDefinition,
  ServerUnaryCall,
  ServiceDefinition,
  ServiceError,
  UntypedServiceImplementation,
  sendUnaryData,
} from '@grpc/grpc-js';
import type { RequestContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { ErrorCode } from '../errors.ts';
import type { Logger } from '../log.ts';
import { grpcServerSeconds } from '../metrics.ts';
import type { HealthRegistry } from '../health.ts';
import { health as processHealth } from '../health.ts';
import { callerKinds, checkCall } from './caller-check.ts';
import { addHealthService } from './health-service.ts';
import { serviceOfPath } from './identity.ts';
import { pageReplySerializer } from './page-reply.ts';
import { contextFromMetadata, traceFromMetadata } from './metadata.ts';
import { inHop, startHop, type Hop } from '../tracing/hops.ts';
import { toGrpcError } from './status.ts';
import { currentTrust, type LoadedTrust } from './trust.ts';

export interface CallContext {
  /** Who calls, for which tenant: from the metadata, verified against its grant, never from the request message. */
  ctx: RequestContext;
  /** The kinds the calling process's certificate names. */
  caller: readonly string[];
  /** The caller's deadline, to pass on to calls this handler makes in turn. */
  deadline: Date | undefined;
  /** Aborts when the caller cancels or the deadline passes, so long work can stop early. */
  signal: AbortSignal;
  /** Carries requestId, operation and tenant on every line. */
  log: Logger;
}

export type UnaryHandler<Req = never, Res = unknown> = (request: Req, call: CallContext) => Promise<Res>;

export interface GrpcServiceBinding {
  definition: ServiceDefinition;
  handlers: Record<string, UnaryHandler>;
}

type RequestOf<M> = M extends { requestDeserialize: (bytes: Buffer) => infer Req } ? Req : never;
type ResponseOf<M> = M extends { responseSerialize: (value: infer Res) => Buffer } ? Res : never;

/** One handler per method of a generated definition; a streaming method cannot be bound (never). */
export type ServiceHandlers<D extends ServiceDefinition> = {
  [K in keyof D]: D[K] extends { requestStream: false; responseStream: false }
    ? UnaryHandler<RequestOf<D[K]>, ResponseOf<D[K]>>
    : never;
};

/**
 * Pairs a ts-proto definition with its handlers, request and response types inferred per method.
 * Every method must be handled, so a method added to the proto is a compile error until implemented.
 */
export function bindService<D extends ServiceDefinition>(
  definition: D,
  handlers: NoInfer<ServiceHandlers<D>>,
): GrpcServiceBinding {
  return { definition, handlers };
}

export interface GrpcServerOptions {
  /** Default 127.0.0.1: internal ports are not for the outside world. */
  host?: string;
  /** 0 (the default) picks an ephemeral port, so two instances run side by side. */
  port?: number;
  services: GrpcServiceBinding[];
  logger: Logger;
  /** How long stop() lets in-flight calls finish before cutting them off. */
  shutdownGraceMs?: number;
  /** Certificates and context key; the process's (setProcessTrust) when omitted. */
  trust?: LoadedTrust;
  /**
   * The readiness grpc.health.v1 answers from (SERVING while it reports ready); the process's
   * registry when omitted, null for a server whose health only follows its own start and stop.
   */
  readiness?: HealthRegistry | null;
}

/** Where a service's gRPC server listens and logs: what a service's start options pass through. */
export type GrpcListen = Pick<GrpcServerOptions, 'host' | 'port' | 'logger'>;

/** The listening part of a service's start options (which also carry its handlers and stores). */
export function listenOf({ host, port, logger }: GrpcListen): GrpcListen {
  return { host, port, logger };
}

export interface GrpcServer {
  port: number;
  /** host:port for clients to dial. */
  address: string;
  stop(): Promise<void>;
}

const SERVER_OPTIONS = {
  // Ping idle clients so a peer that vanished (node lost, NAT dropped) is noticed and its calls freed.
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  // grpc-js clients resolve a name again only when a connection ends. Ending each connection after
  // ~20 s (GOAWAY; calls in flight finish under their own deadlines) makes every client re-resolve
  // its headless Service, so a new pod is called within that time (docs/deploy.md "Load balancing").
  'grpc.max_connection_age_ms': 20_000,
};

const INTERNAL_MESSAGE = 'The service failed to complete the request.';
const CANCELLED_MESSAGE = 'The caller cancelled the call or its deadline passed.';
// setTimeout fires at once for longer delays; a deadline further away than ~24 days is no deadline.
const MAX_TIMER_MS = 2 ** 31 - 1;

type Bytes = Buffer;
type UntypedMethod = MethodDefinition<unknown, unknown>;

/** Whatever escaped the handler, as the AppError the caller gets; unexpected errors are logged in full. */
function settle(err: unknown, log: () => Logger): AppError {
  if (err instanceof AppError) {
    if (err.code === 'internal') log().error({ err }, 'handler answered internal');
    else if (log().isLevelEnabled('debug')) log().debug({ code: err.code }, 'handler answered with an error');
    return err;
  }
  log().error({ err }, 'handler failed');
  return new AppError('internal', INTERNAL_MESSAGE, {}, { cause: err });
}

function decodeRequest(method: UntypedMethod, bytes: Bytes): unknown {
  try {
    return method.requestDeserialize(bytes);
  } catch (err) {
    throw new AppError('invalid_body', 'The request message could not be decoded.', {}, { cause: err });
  }
}

function deadlineOf(call: ServerUnaryCall<Bytes, Bytes>): Date | undefined {
  const deadline = call.getDeadline();
  if (deadline instanceof Date) return deadline;
  return Number.isFinite(deadline) ? new Date(deadline) : undefined;
}

/**
 * An AbortSignal that fires on cancellation or at the deadline, made when a handler first asks for
 * it (most never do, and its controller, listener and timer cost ~20 µs per call); `release`
 * detaches both.
 */
function cancellation(call: ServerUnaryCall<Bytes, Bytes>, deadline: Date | undefined) {
  let made: { signal: AbortSignal; release: () => void } | undefined;
  let released = false;
  const make = () => {
    const controller = new AbortController();
    // Asked for once the call is over (grpc-js then reports it cancelled): nothing is left to abort.
    if (released) return { signal: controller.signal, release: () => undefined };
    const abort = () => controller.abort(new AppError('unavailable', CANCELLED_MESSAGE));
    call.once('cancelled', abort);
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(abort, Math.min(MAX_TIMER_MS, Math.max(0, deadline.getTime() - Date.now())));
    timer?.unref();
    // Asked for after the caller had already gone: it fires at once.
    if (call.cancelled) abort();
    const release = () => {
      clearTimeout(timer);
      call.off('cancelled', abort);
    };
    return { signal: controller.signal, release };
  };
  return {
    signal: () => (made ??= make()).signal,
    release: () => {
      released = true;
      made?.release();
    },
  };
}

interface Answer {
  error: ServiceError | null;
  value?: Bytes;
}

/** Runs one call to completion. Never rejects: every failure becomes an error answer. */
async function answer(
  method: UntypedMethod,
  handler: UnaryHandler,
  { logger, trust }: Served,
  call: ServerUnaryCall<Bytes, Bytes>,
  hop: Hop,
): Promise<Answer> {
  const started = process.hrtime.bigint();
  const deadline = deadlineOf(call);
  const { signal, release } = cancellation(call, deadline);
  // The call's child logger (~15 µs each) is made only when something logs: most calls log nothing
  // at the product's level.
  let log: Logger | undefined;
  let callLog = (): Logger => (log ??= logger.child({ rpc: method.path }));
  let code: ErrorCode | 'ok' = 'ok';
  try {
    const ctx = contextFromMetadata(call.metadata);
    const caller = callerKinds(call);
    checkCall(method.path, caller, ctx, trust);
    const bindings = {
      requestId: ctx.requestId,
      operation: ctx.operation,
      tenant: ctx.tenant?.id,
      rpc: method.path,
    };
    callLog = () => (log ??= logger.child(bindings));
    const request = decodeRequest(method, call.request);
    // bindService pairs each handler with its own method's deserializer, so the decoded value has
    // the type the handler declared; the binding only erased it.
    const context: CallContext = {
      ctx,
      caller,
      deadline,
      get signal() {
        return signal();
      },
      get log() {
        return callLog();
      },
    };
    const response = await handler(request as never, context);
    return { error: null, value: method.responseSerialize(response) };
  } catch (err) {
    const appError = settle(err, callLog);
    code = appError.code;
    return { error: toGrpcError(appError) };
  } finally {
    release();
    hop.end(code === 'ok' ? undefined : code);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    grpcServerSeconds.observe({ method: method.path, code }, seconds);
    if (logger.isLevelEnabled('debug')) {
      callLog().debug({ rpc: method.path, code, ms: Math.round(seconds * 1000) }, 'call answered');
    }
  }
}

interface Served {
  logger: Logger;
  trust: LoadedTrust;
}

function wrap(method: UntypedMethod, handler: UnaryHandler, served: Served) {
  return (call: ServerUnaryCall<Bytes, Bytes>, callback: sendUnaryData<Bytes>): void => {
    // The call's server span, a child of the caller's client span (its `traceparent` metadata):
    // the handler, its calls, its events and every line logged about the call run in it.
    const hop = startHop(method.path, 'server', traceFromMetadata(call.metadata));
    inHop(hop, () => answer(method, handler, served, call, hop))
      .then(({ error, value }) => callback(error, value))
      .catch((err: unknown) => served.logger.error({ err, rpc: method.path }, 'could not send the answer'));
  };
}

const passBytes = (bytes: Bytes): Bytes => bytes;

/**
 * The definition registered with grpc-js carries raw bytes both ways: decoding and encoding happen
 * inside the wrapper, so an undecodable request is the caller's `invalid_body` and an unencodable
 * response is a logged `internal`, instead of a status grpc-js makes up with no log line.
 */
function register(server: Server, binding: GrpcServiceBinding, served: Served): void {
  const rawDefinition: Record<string, MethodDefinition<Bytes, Bytes>> = {};
  const implementation: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(binding.definition)) {
    const handler = binding.handlers[name];
    if (method.requestStream || method.responseStream)
      throw new Error(`${method.path} streams; only unary is supported`);
    if (!handler) throw new Error(`No handler for ${method.path}`);
    rawDefinition[name] = { ...method, requestDeserialize: passBytes, responseSerialize: passBytes };
    const serialize = pageReplySerializer(method.responseSerialize, method.responseDeserialize);
    implementation[name] = wrap({ ...method, responseSerialize: serialize }, handler, served);
  }
  for (const name of Object.keys(binding.handlers)) {
    if (!Object.hasOwn(binding.definition, name)) throw new Error(`Handler ${name} matches no method`);
  }
  server.addService(rawDefinition, implementation);
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Where a client should dial: a wildcard bind is reached through loopback. */
function dialHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return formatHost(host);
}

/** TLS that requires a client certificate of the internal CA: no plaintext, no anonymous caller. */
const credentialsOf = (trust: LoadedTrust): ServerCredentials =>
  ServerCredentials.createSsl(trust.ca, [{ private_key: trust.key, cert_chain: trust.cert }], true);

function bind(server: Server, target: string, trust: LoadedTrust): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(target, credentialsOf(trust), (error, port) => {
      if (error) reject(error);
      else resolve(port);
    });
  });
}

/** Lets in-flight calls finish for `graceMs`, then cuts whatever is left. */
function shutdown(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    timer.unref();
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  const host = options.host ?? '127.0.0.1';
  const server = new Server(SERVER_OPTIONS);
  const served: Served = { logger: options.logger, trust: options.trust ?? currentTrust() };
  for (const binding of options.services) register(server, binding, served);
  const services = options.services.map((binding) =>
    serviceOfPath(Object.values(binding.definition)[0]?.path ?? ''),
  );
  const readiness = options.readiness === undefined ? processHealth : (options.readiness ?? undefined);
  const serverHealth = addHealthService(server, services, readiness);
  let port: number;
  try {
    port = await bind(server, `${formatHost(host)}:${options.port ?? 0}`, served.trust);
  } catch (err) {
    serverHealth.stop();
    server.forceShutdown();
    throw err;
  }
  options.logger.info({ host, port }, 'grpc server listening');
  let stopping: Promise<void> | undefined;
  return {
    port,
    address: `${dialHost(host)}:${port}`,
    // NOT_SERVING first: a peer's readiness check sees the drain while in-flight calls finish.
    stop: () => {
      serverHealth.stop();
      return (stopping ??= shutdown(server, options.shutdownGraceMs ?? 5000));
    },
  };
}
