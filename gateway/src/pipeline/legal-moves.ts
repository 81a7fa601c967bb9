// Legal moves an agent can follow (docs/decisions.md, "Legal moves"): a 409 that lists the
// triggers (or states) a record's machine allows from here also lists, as legalMoves, each one
// with the operation that makes it, found in the registry among the writes that guard the same
// machine: an operation taking it as `trigger`, one named after it (POST /deals/:id/lose), or a
// PATCH taking it as the machine's field. A trigger no operation makes (one done in the portal)
// is left out of legalMoves.
import type { z } from 'zod';
import type { EndpointDef } from '../endpoint/types.ts';

export interface LegalMove {
  trigger: string;
  operationId: string;
  method: 'POST' | 'PATCH';
  path: string;
  body?: Record<string, string>;
}

/** The values an enum field accepts (through optional), or none. */
function enumValues(schema: z.ZodType | undefined): readonly string[] {
  let def = (
    schema as { _zod?: { def: { type: string; innerType?: z.ZodType; entries?: object } } } | undefined
  )?._zod?.def;
  while (def?.type === 'optional' && def.innerType)
    def = (def.innerType as unknown as { _zod: { def: typeof def } })._zod.def;
  return def?.type === 'enum' && def.entries ? Object.values(def.entries).map(String) : [];
}

function moveOf(writes: readonly EndpointDef[], field: string, name: string): LegalMove | undefined {
  const move = (endpoint: EndpointDef, body?: Record<string, string>): LegalMove => ({
    trigger: name,
    operationId: endpoint.operationId,
    method: endpoint.method as 'POST' | 'PATCH',
    path: `/api/v1${endpoint.path.replace(/:(\w+)/g, '{$1}')}`,
    ...(body ? { body } : {}),
  });
  const byTrigger = writes.find((e) => enumValues(e.body?.shape.trigger as z.ZodType).includes(name));
  if (byTrigger) return move(byTrigger, { trigger: name });
  const named = writes.find((e) => e.method === 'POST' && e.path.endsWith(`/${name.replace(/_/g, '-')}`));
  if (named) return move(named);
  const patch = writes.find(
    (e) => e.method === 'PATCH' && enumValues(e.body?.shape[field] as z.ZodType).includes(name),
  );
  return patch ? move(patch, { [field]: name }) : undefined;
}

/**
 * For an endpoint that guards a machine: the legal moves of the triggers (or states) a refusal
 * lists. Undefined for any other endpoint.
 */
export function legalMovesOf(
  registry: readonly EndpointDef[],
  endpoint: EndpointDef,
): ((names: readonly string[]) => LegalMove[]) | undefined {
  const machine = endpoint.machine;
  if (!machine) return undefined;
  const writes = registry.filter((e) => e.method !== 'GET' && e.machine?.moves === machine.moves);
  return (names) => names.flatMap((name) => moveOf(writes, machine.field, name) ?? []);
}
