// The dispatch every `npm run <tool> -- <command>` CLI ends with (kafka, s3, image, cluster): the
// command argv[2] names runs; an unknown one prints the usage and exits 2, a failed one its message
// and exits 1.
import { inspect } from 'node:util';

/**
 * What a failed command prints: its message, or, for an error without one (an AggregateError of a
 * connect that tried several addresses has none of its own), the error inspected whole, so a
 * failure never exits 1 in silence.
 */
function failureText(error) {
  if (error instanceof Error && error.message) return error.message;
  return inspect(error);
}

/** Runs `commands[process.argv[2]]`; `usage` is the line printed when argv[2] names none of them. */
export function runSubcommand(commands, usage) {
  const command = commands[process.argv[2] ?? ''];
  if (command === undefined) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  command().catch((error) => {
    console.error(failureText(error));
    process.exit(1);
  });
}
