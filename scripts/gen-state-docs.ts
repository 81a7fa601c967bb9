// Writes docs/state-machines.md from the machines declared in contracts/ (every export named
// *_MACHINE, and each kind of RECORD_STATUS_MACHINES; each is a defineMachine()), so the
// documented tables can never disagree with what the services enforce. `--check` fails when the
// committed page is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as contracts from '@fieldops/contracts';
import type { Machine } from '@fieldops/contracts';
import { format, resolveConfig } from 'prettier';

type AnyMachine = Machine<string, string>;

/** The lists a machine may declare about who fires a trigger, and how the page says it. */
const FIRED_BY: Record<string, string> = {
  notByAdvance: 'its own call, not the advance endpoint',
  notByApi: 'nobody through the API',
  byCustomer: 'the customer, through the client page',
  byPlatform: 'the platform (e.g. a recorded payment)',
  byClock: 'the clock',
};

function firedBy(machine: AnyMachine, trigger: string): string {
  const lists = machine as unknown as Record<string, unknown>;
  const found = Object.entries(FIRED_BY).find(
    ([list]) => Array.isArray(lists[list]) && (lists[list] as string[]).includes(trigger),
  );
  return found ? found[1] : 'an API caller';
}

/** A machine declared by triggers (the others declare their moves, and have no trigger names). */
const byTriggers = (machine: AnyMachine): boolean => machine.triggerNames.length > 0;

const target = resolve(import.meta.dirname, '..', 'docs', 'state-machines.md');

const isMachine = (value: unknown): value is AnyMachine =>
  typeof value === 'object' && value !== null && 'triggerNames' in value && 'moves' in value;

/** `DEAL_STAGE_MACHINE` → `Deal stage`. */
const titleOf = (exportName: string): string => {
  const words = exportName
    .replace(/_MACHINE$/, '')
    .toLowerCase()
    .split('_');
  return [words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1), ...words.slice(1)].join(' ');
};

function declaredMachines(): [string, AnyMachine][] {
  const found: [string, AnyMachine][] = [];
  for (const [name, value] of Object.entries(contracts).sort(([a], [b]) => a.localeCompare(b))) {
    if (name.endsWith('_MACHINE') && isMachine(value)) found.push([titleOf(name), value]);
  }
  const records = (contracts as Record<string, unknown>)['RECORD_STATUS_MACHINES'];
  if (records && typeof records === 'object') {
    for (const [kind, value] of Object.entries(records)) {
      if (isMachine(value)) found.push([`Project record status (${kind})`, value]);
    }
  }
  return found;
}

/** Every edge as [from, to, label]; a moves machine has no trigger names. */
function edgesOf(machine: AnyMachine): [string, string, string][] {
  if (byTriggers(machine)) {
    const timed = timedEdges(machine).flatMap(({ trigger, from, to, withinMs }) =>
      from.map((source): [string, string, string] => [source, to, `${trigger} (within ${withinMs} ms)`]),
    );
    return Object.entries(machine.triggers)
      .flatMap(([trigger, { from, to }]) =>
        from.map((source): [string, string, string] => [source, to, trigger]),
      )
      .concat(timed);
  }
  return Object.entries(machine.moves).flatMap(([source, targets]) =>
    targets.map((to): [string, string, string] => [source, to, '']),
  );
}

const mermaidId = (state: string) => state.replace(/[^A-Za-z0-9_]/g, '_');

function diagram(machine: AnyMachine): string {
  const lines = ['```mermaid', 'stateDiagram-v2'];
  if (machine.initial) lines.push(`  [*] --> ${mermaidId(machine.initial)}`);
  for (const [from, to, label] of edgesOf(machine)) {
    lines.push(`  ${mermaidId(from)} --> ${mermaidId(to)}${label ? `: ${label}` : ''}`);
  }
  lines.push('```');
  return lines.join('\n');
}

/** The timed edges: a trigger that stays open for a while after its source status was entered. */
function timedEdges(machine: AnyMachine) {
  return Object.entries(machine.timed).flatMap(([trigger, edge]) =>
    edge ? [{ trigger, from: edge.from, to: machine.destination(trigger), withinMs: edge.withinMs }] : [],
  );
}

const codes = (states: readonly string[]) => states.map((s) => `\`${s}\``).join(', ');

function table(machine: AnyMachine): string {
  if (byTriggers(machine)) {
    const rows = Object.entries(machine.triggers).map(
      ([trigger, { from, to }]) =>
        `| \`${trigger}\` | ${codes(from)} | \`${to}\` | ${firedBy(machine, trigger)} |`,
    );
    const timed = timedEdges(machine).map(
      ({ trigger, from, to, withinMs }) =>
        `| \`${trigger}\` | ${codes(from)}, within ${withinMs} ms of entering it (not a published move) | \`${to}\` | ${firedBy(machine, trigger)} |`,
    );
    rows.push(...timed);
    return ['| Trigger | From | To | Fired by |', '| --- | --- | --- | --- |', ...rows].join('\n');
  }
  const rows = Object.entries(machine.moves).map(
    ([from, to]) => `| \`${from}\` | ${to.length ? codes(to) : '(final)'} |`,
  );
  return ['| From | Can move to |', '| --- | --- |', ...rows].join('\n');
}

/** How a machine is declared, so a newcomer adding one knows where to start. */
const DECLARING = [
  '## Declaring a machine',
  'Each machine is one `defineMachine()` call (`contracts/src/define-machine.ts`) in its own `contracts/src/*.machine.ts` file: its `states` (in the order enums list them), its `initial` state, and either its `triggers` (each with the statuses it fires from and the one it leads to) or, for a machine PATCH moves directly, its `moves`. A second argument holds the facts the services read beside the edges (amendable statuses, who fires a trigger, ...). `notByApi` names triggers no endpoint fires; `timed` names an edge open only for a while after its source status was entered (a finalize racing an abort), which is enforced but never published as a move.',
  'Everything else is derived and read from the machine object, never written again: the state and trigger types (`StateOf`, `TriggerOf`), `is`, `isTrigger`, `canFire`, `canFireWithin` (the timed edges too), `legalTriggers`, `destination`, `next`, `canMove` and the `moves` table that the OpenAPI `x-state-machine` extension and `/capabilities` publish. A plan that moves an entity asks its machine: `test/plan-statuses.test.ts` fails when a service plan writes a status literal of a machine-governed entity.',
].join('\n\n');

async function render(): Promise<string> {
  const sections = declaredMachines().map(([title, machine]) =>
    [
      `## ${title}`,
      machine.initial ? `Starts in \`${machine.initial}\`.` : '',
      table(machine),
      diagram(machine),
    ]
      .filter(Boolean)
      .join('\n\n'),
  );
  const page = [
    '# State machines',
    '<!-- Generated by `npm run docs:gen` from contracts/src/*.machine.ts. Do not edit by hand. -->',
    'Each table is the machine a service enforces, read from the same declaration. Why each edge exists is written beside the declaration in `contracts/src/`.',
    DECLARING,
    ...sections,
  ].join('\n\n');
  return format(page, { ...(await resolveConfig(target)), parser: 'markdown' });
}

const page = await render();
if (process.argv.includes('--check')) {
  const committed = readFileSync(target, 'utf8');
  if (committed !== page) {
    console.error('docs/state-machines.md is stale: run `npm run docs:gen` and commit it.');
    process.exit(1);
  }
  console.log('docs/state-machines.md is up to date.');
} else {
  writeFileSync(target, page);
  console.log('wrote docs/state-machines.md');
}
