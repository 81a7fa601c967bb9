// The life of a service running as its own process (one Deployment per service): check the
// configuration, open the ops server, start the service, report ready, and on SIGTERM report
// not ready, let in-flight work drain, then close everything in reverse order and exit.
import { setTimeout as delay } from 'node:timers/promises';
import { ConfigError, loadConfig } from '../config.ts';
import type { HealthRegistry } from '../health.ts';
import { health, startOpsServer } from '../health.ts';
import { setProcessGrpcDeadline } from '../grpc/client.ts';
import { hasProcessTrust, setProcessTrustLoader, trustFromEnv } from '../grpc/trust.ts';
import { createLogger, type Logger } from '../log.ts';
import { startTracing } from '../tracing/setup.ts';
import { logPermissionDenials } from '../files/permission-denials.ts';
import { loadProcessSettings } from './process-settings.ts';
import { ShutdownStack } from './shutdown-stack.ts';
import { requireSplitAdapters, SplitRequirementError } from './split-requirements.ts';
import type { ConfigWith, Requirement } from './split-requirements.ts';

/** Exit status for a configuration the process refuses (sysexits' EX_CONFIG). */
export const EXIT_CONFIG = 78;

export interface ProcessDeps<N extends Requirement> {
  config: ConfigWith<N>;
  logger: Logger;
  /** Register how to close each thing right after opening it. */
  shutdown: ShutdownStack;
  /** Add readiness checks of what this process depends on (served on /readyz). */
  health: HealthRegistry;
}

export interface ServiceProcessSpec<N extends Requirement> {
  /** The process kind: names the logger and the refusal message. */
  name: string;
  /** The shared adapters without which this process must not run split (split-requirements.ts). */
  needs: readonly N[];
  start(deps: ProcessDeps<N>): Promise<void>;
}

export interface RunningProcess {
  opsPort: number;
  logger: Logger;
  /** Not ready at once, then after the drain delay closes everything. Idempotent. */
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Defaults to the process-wide registry. */
  registry?: HealthRegistry;
}

/** Starts the process without touching signals or exit codes (runServiceProcess adds those). */
export async function startServiceProcess<N extends Requirement>(
  spec: ServiceProcessSpec<N>,
  options: StartOptions = {},
): Promise<RunningProcess> {
  const env = options.env ?? process.env;
  const config = requireSplitAdapters(spec.name, loadConfig(env, options.cwd), spec.needs);
  const settings = loadProcessSettings(env);
  // Before anything serves: every request, call and event of this process is traced from the first.
  const tracing = await startTracing(spec.name, env);
  // Every gRPC client this process connects calls with its configured deadline.
  setProcessGrpcDeadline(config.grpcDeadlineMs);
  // Its certificate, the CA and the gateway's context key (the signing half in the gateway only).
  // A process started in a test that set its trust already (and gives none) keeps that one.
  if (env['FIELDOPS_CONTEXT_PUBLIC_KEY'] || !hasProcessTrust())
    setProcessTrustLoader(() => trustFromEnv(env));
  const registry = options.registry ?? health;
  const logger = createLogger(spec.name, config.logLevel);
  const shutdown = new ShutdownStack(logger);
  // Pushed first, so it runs last: the spans of the drained work are sent too.
  shutdown.push(() => tracing.flush());
  // Every access its kind's permissions refuse is a log line, never a silent failure.
  shutdown.push(logPermissionDenials(logger, spec.name));

  // Ready only between a completed start and the first stop signal.
  let serving = false;
  shutdown.push(registry.register('process', () => serving));
  // The ops server is opened first so it closes last: liveness keeps answering while draining.
  const ops = await startOpsServer({
    host: config.host,
    port: settings.opsPort,
    logger,
    registry,
    ...(settings.metricsToken ? { metricsToken: settings.metricsToken } : {}),
  });
  shutdown.push(() => ops.stop());
  try {
    await spec.start({ config, logger, shutdown, health: registry });
  } catch (err) {
    // A configuration problem is printed plainly by runServiceProcess; anything else is a failure.
    if (!(err instanceof ConfigError)) logger.fatal({ err }, 'could not start');
    await shutdown.unwind();
    throw err;
  }
  serving = true;
  registry.invalidate();
  logger.info({ opsPort: ops.port }, 'ready');

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      serving = false;
      registry.invalidate();
      if (settings.drainMs > 0) await delay(settings.drainMs);
      await shutdown.unwind();
      logger.info('stopped');
    })();
    return stopping;
  };
  return { opsPort: ops.port, logger, stop };
}

/** The entry point of a service process: `await runServiceProcess({...})` in its main.ts. */
export async function runServiceProcess<N extends Requirement>(spec: ServiceProcessSpec<N>): Promise<void> {
  let running: RunningProcess;
  try {
    running = await startServiceProcess(spec);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof SplitRequirementError) {
      // Said plainly on stderr: this is read by a person looking at a crash-looping pod.
      console.error(err.message);
      process.exit(EXIT_CONFIG);
    }
    // A failure before the service started (the ops port taken, a refused file) is logged by
    // startServiceProcess only from spec.start on: never exit without saying why.
    console.error('could not start:', err);
    process.exit(1);
  }

  const exitAfterStop = (code: number) =>
    running.stop().then(
      () => process.exit(code),
      () => process.exit(1),
    );
  let signalled = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      // A second signal means "now": skip the drain.
      if (signalled) process.exit(1);
      signalled = true;
      running.logger.info({ signal }, 'stopping');
      void exitAfterStop(0);
    });
  }
  // The servers already turn every request failure into an answer; reaching here is a bug, and a
  // process in an unknown state is better restarted than kept.
  const fatal = (err: unknown) => {
    running.logger.fatal({ err }, 'uncaught failure; stopping');
    void exitAfterStop(1);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
}
