// The proposal and invoice state tables in docs/decisions.md are read back and compared with the
// declared machines, so the documentation cannot drift from the data the services run on.
import { readFileSync } from 'node:fs';
import { INVOICE_STATUS_MACHINE, PROPOSAL_STATUS_MACHINE } from '@fieldops/contracts';

const DOC = new URL('../../../docs/decisions.md', import.meta.url);

/** The `| trigger | from | to | fired by |` rows of the table under the heading `title`. */
function documentedTable(title: string): Record<string, { from: string[]; to: string }> {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('## Proposals and invoices'));
  const start = section.indexOf(title);
  if (start < 0) throw new Error(`docs/decisions.md has no "${title}"`);
  const lines = section.slice(start).split('\n').slice(1);
  const rows = lines
    .slice(lines.findIndex((line) => line.trim().startsWith('|')))
    .filter((_, i, all) => all.slice(0, i + 1).every((line) => line.trim().startsWith('|')));
  return Object.fromEntries(
    rows
      .slice(2) // header and separator
      .map((row) => row.split('|').map((cell) => cell.trim()))
      .map(([, trigger = '', from = '', to = '']) => [trigger, { from: from.split(', '), to }]),
  );
}

const declared = (triggers: Record<string, { from: readonly string[]; to: string }>) =>
  Object.fromEntries(Object.entries(triggers).map(([t, edge]) => [t, { from: [...edge.from], to: edge.to }]));

describe('documented state tables', () => {
  it('the proposal table is the declared proposal machine', () => {
    expect(documentedTable('**Proposal status machine**')).toEqual(
      declared(PROPOSAL_STATUS_MACHINE.triggers),
    );
  });

  it('the invoice table is the declared invoice machine', () => {
    expect(documentedTable('**Invoice status machine**')).toEqual(declared(INVOICE_STATUS_MACHINE.triggers));
  });
});
