// Why: a consumer that must see every event ever written on its topics (the audit trail, the
// webhook dispatcher, a projection of another service's records) creates the topics it reads
// (a topic nobody has written yet is not there) and starts its group at their beginning, so
// events written before the group first ran still reach it.
//
// Its first join is not waited for. After a crash, a restarted member's join waits until the
// group's coordinator gives up on the killed member (its session timeout, 30 s); a start that
// awaited it kept the whole process down that long: audit's and webhooks' APIs, the gateway's
// HTTP (its change feed). Nothing is lost by serving first: the group reads from its committed
// offsets, or from the beginning, whenever the join completes. Meanwhile /readyz reports the
// event log as not connected (a report-only check).
import type { EventLog, SubscribeOptions, Subscription } from './port.ts';

/** Why a process ends when a first join fails for good (after the log's own retries). */
export class JoinFailed extends Error {
  constructor(group: string, cause: unknown) {
    super(`The consumer group ${group} could not join: ${cause instanceof Error ? cause.message : cause}`, {
      cause,
    });
  }
}

/** By default a failed first join is an unhandled rejection, on which a service process stops. */
const stopTheProcess = (failure: JoinFailed): void => {
  void Promise.reject(failure);
};

/**
 * Subscribes `group` to `topics` from their beginning, creating any topic not there yet, and
 * resolves once the topics exist, with the join still going on. `stop()` waits for a join in
 * progress, then stops the consumer. A first join that fails for good (after the log's own
 * retries), before any stop, goes to `onJoinFailure`: by default the process stops, as it did
 * when its start failed.
 */
export async function followFromStart(
  log: EventLog,
  options: Omit<SubscribeOptions, 'fromBeginning'>,
  onJoinFailure: (failure: JoinFailed) => void = stopTheProcess,
): Promise<Subscription> {
  for (const topic of options.topics) await log.ensureTopic(topic);
  const joining = log.subscribe({ ...options, fromBeginning: true });
  let stopped = false;
  joining.catch((err: unknown) => {
    if (!stopped) onJoinFailure(new JoinFailed(options.group, err));
  });
  return {
    async stop() {
      stopped = true;
      const subscription = await joining.catch(() => undefined);
      await subscription?.stop();
    },
  };
}
