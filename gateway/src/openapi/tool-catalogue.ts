// Every operation's tool, built once per dialect and picked from by the endpoints a caller is
// offered (tool-selection.ts). Keyed by dialect only: a key per selection would let callers fill
// memory with every combination.
import type { EndpointDef } from '../endpoint/types.ts';
import { toolsIn, type ToolDialect } from './tool-dialects.ts';

const catalogues = new WeakMap<readonly EndpointDef[], ToolCatalogue>();

export class ToolCatalogue {
  private readonly built = new Map<ToolDialect, Map<EndpointDef, object>>();

  private readonly registry: readonly EndpointDef[];
  private constructor(registry: readonly EndpointDef[]) {
    this.registry = registry;
  }

  /** The one catalogue of a registry: the manifest and the MCP endpoint share what was built. */
  static of(registry: readonly EndpointDef[]): ToolCatalogue {
    let catalogue = catalogues.get(registry);
    if (!catalogue) {
      catalogue = new ToolCatalogue(registry);
      catalogues.set(registry, catalogue);
    }
    return catalogue;
  }

  /** The tools of `endpoints` (endpoints of this registry) in `dialect`, in the order given. */
  toolsOf(dialect: ToolDialect, endpoints: readonly EndpointDef[]): object[] {
    let built = this.built.get(dialect);
    if (!built) {
      const all = this.registry;
      const list = toolsIn(all, dialect);
      built = new Map(all.map((endpoint, n) => [endpoint, list[n]!]));
      this.built.set(dialect, built);
    }
    const byEndpoint = built;
    return endpoints.map((endpoint) => byEndpoint.get(endpoint)!);
  }
}
