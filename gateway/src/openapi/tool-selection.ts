// Which operations a caller is offered as tools: those its token may perform (role, narrowing,
// project restriction: pipeline/capability.ts, the pipeline's own checks), narrowed by what the
// client chose (read-only, tags, kinds). The reads every token may make (who am I, capabilities,
// the contract, its own change feed) are the endpoints that need no scope; docs/agents.md.
import type { authorize as authorizeFn } from '../identity/authorize.ts';
import type { Caller } from '../identity/model.ts';
import type { EndpointDef } from '../endpoint/types.ts';
import { mayCall } from '../pipeline/capability.ts';

export interface ToolChoice {
  /** Only operations that read (GET). */
  readOnly?: boolean;
  /** Only these tags (case-insensitive); empty: every tag. */
  tags?: readonly string[];
  /** Only operations whose scope is on these kinds; empty: every kind. */
  kinds?: readonly string[];
  /** The reads every token may make stay whatever tags or kinds were chosen (the MCP endpoint). */
  keepUniversal?: boolean;
}

/** An operation any valid token may call: it needs no scope (me, capabilities, the contract, changes). */
export const isUniversal = (endpoint: EndpointDef): boolean => endpoint.auth !== 'scope';

const lowered = (list: readonly string[] = []) => new Set(list.map((item) => item.toLowerCase()));

export function selectToolEndpoints(
  registry: readonly EndpointDef[],
  caller: Caller | null,
  authorize: typeof authorizeFn,
  choice: ToolChoice = {},
): EndpointDef[] {
  const [tags, kinds] = [lowered(choice.tags), lowered(choice.kinds)];
  const chosen = (endpoint: EndpointDef): boolean =>
    (!tags.size || tags.has(endpoint.tag.toLowerCase())) &&
    (!kinds.size || (endpoint.scope !== undefined && kinds.has(endpoint.scope.kind)));
  return registry.filter(
    (endpoint) =>
      (!caller || mayCall(endpoint, caller, authorize)) &&
      (!choice.readOnly || endpoint.method === 'GET') &&
      ((choice.keepUniversal && isUniversal(endpoint)) || chosen(endpoint)),
  );
}
