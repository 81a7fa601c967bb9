// The MCP resources and prompts, generated from the registry: a resource per state machine (its
// legal moves, and the tools that move it) and a prompt for the confirmation protocol. Small on
// purpose: what an agent reads once before it moves a record or sends something irreversible.
import type { EndpointDef } from '../endpoint/types.ts';

export interface McpResource {
  uri: string;
  name: string;
  description: string;
  mimeType: 'application/json';
  text: string;
}

export interface McpPrompt {
  name: string;
  description: string;
  text: string;
}

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** One resource per machine the registry declares (a tag's field), naming the tools that move it. */
export function machineResources(registry: readonly EndpointDef[]): McpResource[] {
  const byMachine = new Map<string, { tag: string; field: string; moves: object; tools: string[] }>();
  for (const endpoint of registry) {
    if (!endpoint.machine) continue;
    const key = `${endpoint.tag}/${endpoint.machine.field}`;
    const entry = byMachine.get(key) ?? { ...endpoint.machine, tag: endpoint.tag, tools: [] };
    entry.tools.push(endpoint.operationId);
    byMachine.set(key, entry);
  }
  return [...byMachine.values()].map(({ tag, field, moves, tools }) => ({
    uri: `fieldops://state-machines/${slug(tag)}/${field}`,
    name: `${tag} ${field} machine`,
    description: `The legal moves of ${tag} ${field} (state → the states it may move to) and the tools that move it: ${tools.join(', ')}.`,
    mimeType: 'application/json',
    text: JSON.stringify({ tag, field, moves, tools }),
  }));
}

export const CONFIRMATION_PROMPT: McpPrompt = {
  name: 'confirmation-protocol',
  description: 'How to perform an irreversible or binding operation (send a proposal, issue an invoice, …).',
  text: [
    'Some fieldops tools need a person to approve them: their description says "Needs two-phase confirmation".',
    '1. Call the tool with a fresh opId (or idempotencyKey). It answers isError with code confirmation_required, confirmToken and willDo.',
    '2. Show willDo (summary, effect, recipient, totalCents) to a person and wait for their approval. Never approve it yourself.',
    '3. Repeat the identical call (same inputs, same opId) with confirmToken, and agentConfirmedBy naming who approved, within 10 minutes.',
    '4. A changed call or an expired token answers confirmation_required again with a new token: go back to step 2.',
    'Repeating the completed call with the same opId answers its result with replayed: true, asks nothing and spends no budget.',
  ].join('\n'),
};
