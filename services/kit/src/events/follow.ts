// Why: a consumer that must see every event ever written on its topics (the audit trail, the
// webhook dispatcher, a projection of another service's records) creates the topics it reads
// (a topic nobody has written yet is not there) and starts its group at their beginning, so
// events written before the group first ran still reach it.
import type { EventLog, SubscribeOptions, Subscription } from './port.ts';

/** Subscribes `group` to `topics` from their beginning, creating any topic not there yet. */
export async function followFromStart(
  log: EventLog,
  options: Omit<SubscribeOptions, 'fromBeginning'>,
): Promise<Subscription> {
  for (const topic of options.topics) await log.ensureTopic(topic);
  return log.subscribe({ ...options, fromBeginning: true });
}
