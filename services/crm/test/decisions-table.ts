// Why: crm's state tables are written out in docs/decisions.md, and a suite per machine checks the
// written table against the declared one. How a table is read from the document lives here once.
import { readFileSync } from 'node:fs';

/** The body rows (cells trimmed) of the trigger table under `heading` in docs/decisions.md. */
export function decisionsTableRows(heading: string): string[][] {
  const doc = readFileSync(new URL('../../../docs/decisions.md', import.meta.url), 'utf8');
  const start = doc.indexOf(heading);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
  return section
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|') && !line.startsWith('| trigger') && !/^\|[\s|-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}
