// Every load scenario, in the order the Node runner runs them. k6 scripts and the Node runner both
// import this list, so adding a scenario here adds it to both. The capture upload comes last: each
// finalize queues a reconstruction whose work goes on after the scenario ends, and would otherwise
// slow down whichever scenario came next.
import { agentConfirm } from './agent-confirm.ts';
import { captureUpload } from './capture-upload.ts';
import { keyedWrites } from './keyed-writes.ts';
import { readHeavy } from './read-heavy.ts';
import type { Scenario } from './scenario.ts';

export const SCENARIOS: readonly Scenario[] = [readHeavy, keyedWrites, agentConfirm, captureUpload];

export function scenarioNamed(name: string): Scenario {
  const found = SCENARIOS.find((scenario) => scenario.name === name);
  if (!found) {
    throw new Error(`no scenario ${name}; there are ${SCENARIOS.map((s) => s.name).join(', ')}`);
  }
  return found;
}

export { agentConfirm, captureUpload, keyedWrites, readHeavy };
export type { Scenario } from './scenario.ts';
