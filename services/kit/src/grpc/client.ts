// Calling a service: one client per service address, and one promise-returning helper that sends the
// request context, always sets a deadline and turns every failure into an AppError.
import { ChannelCredentials, connectivityState } from '@grpc/grpc-js';
import type {
  CallOptions as GrpcCallOptions,
  Client,
  ClientOptions,
  ClientUnaryCall,
  Metadata,
  ServiceError,
} from '@grpc/grpc-js';
import { DEFAULT_GRPC_DEADLINE_MS } from '../config.ts';
import type { RequestContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { grantedContext } from './context-grant.ts';
import { identityUri, kindOfService, kindsOfSubjectAltName, serviceOfPath } from './identity.ts';
import { contextToMetadata, traceToMetadata } from './metadata.ts';
import { startHop } from '../tracing/hops.ts';
import { fromGrpcError } from './status.ts';
import { currentTrust, type LoadedTrust } from './trust.ts';

export type ClientConstructor<C extends Client> = (new (
  address: string,
  credentials: ChannelCredentials,
  options?: Partial<ClientOptions>,
) => C) & { service: Record<string, { path: string }> };

/** The overload of a generated unary method that callUnary uses (metadata and options given). */
export type UnaryCallFn<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<GrpcCallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

/** The names of a client's unary methods: what callUnary accepts as `method`. */
export type UnaryMethodName<C> = {
  [K in keyof C]: C[K] extends UnaryCallFn<infer _Req, infer _Res> ? K : never;
}[keyof C] &
  string;

export type UnaryRequest<F> = F extends UnaryCallFn<infer Req, infer _Res> ? Req : never;
export type UnaryResponse<F> = F extends UnaryCallFn<infer _Req, infer Res> ? Res : never;

export interface UnaryCallOptions {
  /** Overrides the client's default deadline for this call. */
  timeoutMs?: number;
  /** An outer deadline (a handler's own) that this call must not outlive; the earlier one wins. */
  deadline?: Date;
  /** Cancels the call; it then rejects as `unavailable`. */
  signal?: AbortSignal;
}

export interface ConnectOptions {
  /** Deadline for calls that set none; unset, the process's (setProcessGrpcDeadline). */
  deadlineMs?: number;
  /** Certificates and context keys; the process's (setProcessTrust) when omitted. */
  trust?: LoadedTrust;
}

/** A client connection's HTTP/2 receive window (see CHANNEL_OPTIONS). */
export const RECEIVE_WINDOW_BYTES = 4 * 1024 * 1024;

const CHANNEL_OPTIONS: Partial<ClientOptions> = {
  // Keepalive notices a dead peer during a call, and keeps idle connections from being dropped silently.
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
  // Services restart on new ports and pods; a short backoff ceiling reconnects within seconds, not minutes.
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 5_000,
  // Every call picks the next READY endpoint of the target, so all replicas behind a name serve;
  // pick_first (grpc-js's default) would stick each channel to one. The DNS resolver re-resolves
  // when a connection drops and at most every min_time_between_resolutions, so with a headless
  // Service (`dns:///crm:50051`) new pods join within seconds (docs/deploy.md "Load balancing").
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  'grpc.dns_min_time_between_resolutions_ms': 5_000,
  // How much a peer may send this client before it waits for a WINDOW_UPDATE, per connection and per
  // call: one largest message (grpc-js receives up to 4 MB). At HTTP/2's default of 64 KB, crm sent
  // the gateway's page replies (~18 KB each) two at a time and waited for the window between them;
  // the page read turned the event loop once per request and gained 24 % with this window
  // (docs/performance.md, "The receive window"). Every RPC is unary: a reply is read as it comes,
  // so a connection never holds more than the replies of its calls in flight.
  'grpc-node.flow_control_window': RECEIVE_WINDOW_BYTES,
};

const CANCELLED_BEFORE_SENT = 'The call was cancelled before it was sent.';

const defaultDeadlines = new WeakMap<Client, number>();
const clientTrust = new WeakMap<Client, LoadedTrust>();

// The process's FIELDOPS_GRPC_DEADLINE_MS, set once where the process reads its configuration
// (startServiceProcess, startPlatform), so that every client it connects uses it without each
// caller of connectClient having to pass it on.
let processDeadlineMs = DEFAULT_GRPC_DEADLINE_MS;

/**
 * The deadline every client connected from now on gives calls that set none: the process's
 * config.grpcDeadlineMs. Clients already connected keep theirs.
 */
export function setProcessGrpcDeadline(deadlineMs: number): void {
  if (!Number.isSafeInteger(deadlineMs) || deadlineMs < 1) {
    throw new RangeError(`A gRPC deadline is a whole number of milliseconds, not ${deadlineMs}.`);
  }
  processDeadlineMs = deadlineMs;
}

/** The kind that serves a generated client's service (its proto package: crm, capture, ...). */
function kindServing(ClientCtor: ClientConstructor<Client>): string | undefined {
  const [method] = Object.values(ClientCtor.service);
  return kindOfService(serviceOfPath(method?.path ?? ''));
}

/**
 * mTLS: this process's certificate to the server, and the server's certificate must chain to the
 * internal CA and name the kind that serves the client's service. The kind, not the host name, is
 * what is checked: addresses are loopback ports, Service names or pod IPs depending on where it runs.
 */
function credentialsFor(kind: string | undefined, trust: LoadedTrust): ChannelCredentials {
  // A service every store-holding kind serves (the tenant dump): any kind the CA vouched for.
  const serves = (kinds: string[]) => (kind === undefined ? kinds.length > 0 : kinds.includes(kind));
  return ChannelCredentials.createSsl(trust.ca, trust.key, trust.cert, {
    checkServerIdentity: (_host, cert) =>
      serves(kindsOfSubjectAltName(cert.subjectaltname))
        ? undefined
        : new Error(`The server's certificate does not name ${identityUri(kind ?? '<kind>')}.`),
  });
}

/** A client for `address`, over mTLS with the process's internal certificate. */
export function connectClient<C extends Client>(
  ClientCtor: ClientConstructor<C>,
  address: string,
  options: ConnectOptions = {},
): C {
  const trust = options.trust ?? currentTrust();
  const kind = kindServing(ClientCtor);
  const client = new ClientCtor(address, credentialsFor(kind, trust), {
    ...CHANNEL_OPTIONS,
    // The TLS server name (SNI) is the kind that serves, not the address: addresses are often
    // loopback or pod IPs, which Node deprecates as a server name (DEP0123, a warning on every
    // start), and the certificate check above looks at the kind, never the host.
    'grpc.ssl_target_name_override': kind ?? 'fieldops-internal',
  });
  defaultDeadlines.set(client, options.deadlineMs ?? processDeadlineMs);
  clientTrust.set(client, trust);
  return client;
}

function deadlineFor(client: Client, options: UnaryCallOptions): Date {
  const timeoutMs = options.timeoutMs ?? defaultDeadlines.get(client) ?? processDeadlineMs;
  const own = new Date(Date.now() + timeoutMs);
  return options.deadline && options.deadline < own ? options.deadline : own;
}

/** A call on a closed client throws synchronously; during shutdown that is "try again", not a bug. */
function synchronousFailure(client: Client, err: unknown): AppError {
  if (client.getChannel().getConnectivityState(false) === connectivityState.SHUTDOWN) {
    return new AppError(
      'unavailable',
      'The connection to the service is closed. Retry the request shortly.',
      {},
      {
        cause: err,
      },
    );
  }
  return fromGrpcError(err);
}

/** A method's gRPC path (`/crm.CrmService/CreateLead`), the name of its spans. */
function pathOf(client: Client, method: string): string {
  const service = (client.constructor as Partial<ClientConstructor<Client>>).service;
  return service?.[method]?.path ?? method;
}

/**
 * Calls a unary method with the request context in metadata and a deadline. The method name is
 * checked against the client and fixes the request and response types:
 * `callUnary(crmClient, 'listLeads', req, ctx)` resolves to a LeadPage.
 * Rejects only with AppError.
 */
export function callUnary<C extends Client, M extends UnaryMethodName<C>>(
  client: C,
  method: M,
  request: UnaryRequest<C[M]>,
  ctx: RequestContext,
  options: UnaryCallOptions = {},
): Promise<UnaryResponse<C[M]>> {
  // UnaryMethodName admits only members that match UnaryCallFn; TypeScript cannot carry that
  // through the indexed access C[M], so it is restated here.
  const invoke = client[method] as UnaryCallFn<UnaryRequest<C[M]>, UnaryResponse<C[M]>>;
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) {
      reject(new AppError('unavailable', CANCELLED_BEFORE_SENT, {}, { cause: signal.reason }));
      return;
    }
    let call: ClientUnaryCall | undefined;
    const cancel = () => call?.cancel();
    const callOptions: Partial<GrpcCallOptions> = { deadline: deadlineFor(client, options) };
    // The call's client span: a child of the caller's, and the parent of the callee's.
    const hop = startHop(pathOf(client, method), 'client');
    try {
      const sent = grantedContext(ctx, clientTrust.get(client) ?? currentTrust());
      const metadata = traceToMetadata(hop.carrier(), contextToMetadata(sent));
      call = invoke.call(client, request, metadata, callOptions, (error, response) => {
        signal?.removeEventListener('abort', cancel);
        hop.end(error ?? undefined);
        if (error) reject(fromGrpcError(error));
        else resolve(response);
      });
    } catch (err) {
      hop.end(err);
      reject(synchronousFailure(client, err));
      return;
    }
    signal?.addEventListener('abort', cancel, { once: true });
  });
}
