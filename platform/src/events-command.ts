// `npm run events -- dlq list|replay [--topic <topic>] [--id <id>] [--json]`: the operator's view of
// the dead letters (records no retry could fix, docs/production-adapters.md) on the event log the
// environment selects: Kafka with KAFKA_BROKERS (and KAFKA_NAMESPACE), else the embedded log under
// FIELDOPS_DATA_DIR (which one process holds at a time: stop the platform first).
//
//   list     every dead letter (or those of --topic, or the one --id names: a letter id or an event id)
//   replay   publishes the selected letters back to the topics they came from
//
// Exit 0: done; 1: failed; 2: usage.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@fieldops/kit';
import { openEventLog } from '@fieldops/kit/adapters';
import {
  listDeadLetters,
  replayDeadLetters,
  type DeadLetter,
  type DeadLetterFilter,
} from '@fieldops/kit/events';

export interface EventsArgs {
  action: 'list' | 'replay';
  filter: DeadLetterFilter;
  json: boolean;
}

const USAGE =
  'usage: npm run events -- dlq list|replay [--topic <topic>] [--id <letter or event id>] [--json]';

export function parseEventsArgs(argv: readonly string[]): EventsArgs {
  const [area, action, ...rest] = argv;
  if (area !== 'dlq' || (action !== 'list' && action !== 'replay')) throw new Error(USAGE);
  const args: EventsArgs = { action, filter: {}, json: false };
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i];
    const value = rest[i + 1];
    if (arg === '--json') args.json = true;
    else if ((arg === '--topic' || arg === '--id') && value !== undefined && !value.startsWith('--')) {
      args.filter[arg === '--topic' ? 'topic' : 'id'] = value;
      i += 1;
    } else throw new Error(`unknown or incomplete argument ${arg ?? ''}\n${USAGE}`);
  }
  return args;
}

/** One line per letter: where it is, where it came from, its event, and why it was set aside. */
export function describeLetter(letter: DeadLetter): string {
  const reason = letter.failureClass === '' ? letter.error : `${letter.failureClass}: ${letter.error}`;
  const event = letter.eventId === '' ? '' : ` event ${letter.eventId}`;
  return `${letter.id}  from ${letter.topic}${event}  at ${letter.deadLetteredAt}  ${reason}`;
}

export async function runEventsCommand(
  args: EventsArgs,
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
): Promise<void> {
  const log = await openEventLog(loadConfig(env));
  try {
    if (args.action === 'list') {
      const letters = await listDeadLetters(log, args.filter);
      if (args.json)
        out(
          JSON.stringify(
            letters.map(({ record, ...letter }) => ({
              ...letter,
              value: record.value,
              headers: record.headers,
            })),
          ),
        );
      else {
        for (const letter of letters) out(describeLetter(letter));
        out(`${letters.length} dead letter${letters.length === 1 ? '' : 's'}.`);
      }
      return;
    }
    const { replayed, skipped } = await replayDeadLetters(log, args.filter);
    for (const letter of replayed) out(`replayed ${letter.id} to ${letter.topic}`);
    for (const { letter, reason } of skipped) out(`skipped ${letter.id}: ${reason}`);
    out(`${replayed.length} replayed, ${skipped.length} skipped.`);
  } finally {
    await log.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args: EventsArgs;
  try {
    args = parseEventsArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  runEventsCommand(args, process.env, (line) => process.stdout.write(`${line}\n`)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
