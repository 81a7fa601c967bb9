// A plan that moves an entity asks its machine for the statuses (its initial, a trigger's
// destination, canFire), so no plan writes a status of a machine-governed entity by hand: such a
// literal is a second copy of the machine that drifts (a finalize once moved an aborted session
// the published machine called final). This reads every machine contracts declares, and then
// every source file of every service (plans of any ending, capture's run lease, the webhook
// dispatcher, ...), and names each literal status written where a status is compared, assigned or
// reported as a change.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import * as contracts from '@fieldops/contracts';
import type { Machine } from '@fieldops/contracts';

const root = resolve(import.meta.dirname, '..');

const isMachine = (value: unknown): value is Machine<string, string> =>
  typeof value === 'object' && value !== null && 'states' in value && 'canFire' in value;

/** Every machine contracts exports: each *_MACHINE, and each kind's machine in a *_MACHINES map. */
function machines(): Machine<string, string>[] {
  return Object.entries(contracts).flatMap(([name, value]) => {
    if (name.endsWith('_MACHINE') && isMachine(value)) return [value];
    if (name.endsWith('_MACHINES') && typeof value === 'object')
      return Object.values(value).filter(isMachine);
    return [];
  });
}

/** Every TypeScript source file under `dir`: a status is written in plans and beyond them. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Entities with one status and no machine, whose word happens to be a status of some machine:
 * an outbound mail is only ever `queued` for the mail relay, a task only `open`.
 */
const NOT_MACHINE_GOVERNED: Record<string, string[]> = {
  'services/crm/src/mail/outbound-message.ts': ['queued'],
  'services/projects/src/tasks/task.model.ts': ['open'],
  'services/projects/src/tasks/tasks.service.ts': ['open'],
};

/** Where a literal is a status: compared with or assigned to a status/stage, or a change's from/to. */
const STATUS_CONTEXTS = [
  /\b(?:status|stage)\s*(?:===|!==|:|=)\s*'([^']+)'/g,
  /'([^']+)'\s*(?:===|!==)\s*[\w.?]*\b(?:status|stage)\b/g,
  /\b(?:from|to)\s*:\s*'([^']+)'/g,
];

function literalStatuses(file: string, states: Set<string>): string[] {
  const source = readFileSync(file, 'utf8').replace(/^\s*(?:\/\/|\*|\/\*).*$/gm, '');
  const allowed = NOT_MACHINE_GOVERNED[relative(root, file)] ?? [];
  return STATUS_CONTEXTS.flatMap((pattern) =>
    [...source.matchAll(pattern)]
      .filter((match) => states.has(match[1]!) && !allowed.includes(match[1]!))
      .map((match) => `${relative(root, file)}: ${match[0]}`),
  );
}

describe('plans ask their machine', () => {
  const states = new Set(machines().flatMap((machine) => [...machine.states]));
  const files = readdirSync(join(root, 'services')).flatMap((service) => {
    const src = join(root, 'services', service, 'src');
    return readdirSync(join(root, 'services', service)).includes('src') ? sourceFiles(src) : [];
  });

  it('reads the machines and the files it checks', () => {
    const known = ['uploading', 'aborted', 'draft', 'lead', 'Qualified', 'in_progress'];
    // Issue 38: capture runs, webhook deliveries and subscriptions are machines too.
    for (const status of [...known, 'running', 'succeeded', 'pending', 'enabled', 'disabled']) {
      expect(states).toContain(status);
    }
    const checked = files.map((file) => relative(root, file));
    for (const file of [
      'services/capture/src/sessions/finalize.plan.ts',
      'services/capture/src/runs/run-lease.ts',
      'services/webhooks/src/subscriptions/subscription-write.plans.ts',
      'services/webhooks/src/dispatch/delivery-outcome.ts',
    ]) {
      expect(checked).toContain(file);
    }
    for (const file of Object.keys(NOT_MACHINE_GOVERNED)) expect(checked).toContain(file);
  });

  it('no service file writes a literal status of a machine-governed entity', () => {
    expect(files.flatMap((file) => literalStatuses(file, states))).toEqual([]);
  });

  it('would name a literal status a plan wrote', () => {
    const written = "if (doc.status !== 'uploading') return;\nconst next = { ...doc, status: 'finalized' };";
    const found = STATUS_CONTEXTS.flatMap((pattern) => [...written.matchAll(pattern)].map((m) => m[1]));
    expect(found.filter((literal) => states.has(literal!))).toEqual(['uploading', 'finalized']);
  });
});
