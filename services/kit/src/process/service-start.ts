// Why: a service that starts whole (store, consumers and gRPC server: audit, exports, webhooks) takes
// the same things from the one-process platform or from its own main; they are named once here.
import type { Config } from '../config.ts';
import type { EventLog } from '../events/port.ts';
import type { GrpcListen } from '../grpc/server.ts';
import type { ShutdownStack } from './shutdown-stack.ts';

/** What a service's start function takes; `host`/`port` default to 127.0.0.1 on an ephemeral port. */
export type ServiceStartOptions = GrpcListen & {
  config: Config;
  /** The event log it consumes and relays its own events to. */
  log: EventLog;
  /** Where it registers how to close each thing it opens. */
  shutdown: ShutdownStack;
};
