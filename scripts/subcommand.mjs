// The dispatch every `npm run <tool> -- <command>` CLI ends with (kafka, s3, image, cluster): the
// command argv[2] names runs; an unknown one prints the usage and exits 2, a failed one its message
// and exits 1.

/** Runs `commands[process.argv[2]]`; `usage` is the line printed when argv[2] names none of them. */
export function runSubcommand(commands, usage) {
  const command = commands[process.argv[2] ?? ''];
  if (command === undefined) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  command().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
