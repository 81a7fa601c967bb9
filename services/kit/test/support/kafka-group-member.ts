// One member of a consumer group in a process of its own, for the test that kills a member with
// SIGKILL (events.kafka-group-crash.test.ts): a real crash cannot be simulated in one process.
// Run with `node` (type stripping); KAFKA_BROKERS, TOPIC, GROUP and EFFECTS from the environment.
// Its effect per record is a line with the record's event id appended to EFFECTS (synchronously,
// before the handler resolves and the offset is committed), so the test sees what was applied.
// Once the member has joined its group it writes "ready" to stdout.
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { openKafkaEventLog } from '../../src/events/kafka/kafka-log.ts';

const required = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is required`);
  return value;
};

const effects = required('EFFECTS');
const log = await openKafkaEventLog({
  brokers: required('KAFKA_BROKERS').split(','),
  clientId: `fieldops-member-${process.pid}`,
  maxWaitTimeMs: 200,
  sessionTimeoutMs: 6_000,
  onLog: () => {},
});
await log.subscribe({
  group: required('GROUP'),
  topics: [required('TOPIC')],
  handle: async (record) => {
    appendFileSync(effects, `${record.headers['x-event-id']} ${record.partition}\n`);
    // Slow enough that the stream is still going when the test kills a member.
    await sleep(10);
  },
});
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void log.close().then(() => process.exit(0));
});
