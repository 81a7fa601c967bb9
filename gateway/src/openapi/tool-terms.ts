// The registry's sentences are written for HTTP (a header, a path); a tool is called by its name
// with named inputs. This rewrites a sentence for a tool manifest: each protocol header becomes
// the input that carries it, and `METHOD /path` the tool that performs it. The OpenAPI document
// keeps the sentences as written.
import type { EndpointDef } from '../endpoint/types.ts';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Header → input, for the protocol headers a tool carries as inputs. */
export type HeaderNames = readonly { header: string; input: string }[];

/** `POST /deals/:id/lose` (or with /api/v1) → `loseDeal`, from the registry. */
function pathNames(registry: readonly EndpointDef[]): (method: string, path: string) => string | undefined {
  const byRoute = new Map(
    registry.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint.operationId]),
  );
  return (method, path) => byRoute.get(`${method.toUpperCase()} ${path.replace(/^\/api\/v1(?=\/)/, '')}`);
}

export function toolTerms(registry: readonly EndpointDef[], headers: HeaderNames): (text: string) => string {
  const nameOf = pathNames(registry);
  const rules = headers.map(({ header, input }) => ({
    pattern: new RegExp(`(?:the )?(?:input )?\\b${escape(header)}\\b(?: header)?(?:: 1)?`, 'gi'),
    input,
  }));
  return (text) => {
    let out = text.replace(
      /\b(GET|POST|PUT|PATCH|DELETE) (\/[\w/:.-]*\w)/g,
      (whole, method: string, path: string) => {
        const name = nameOf(method, path);
        return name ? `the tool ${name}` : whole;
      },
    );
    for (const { pattern, input } of rules) out = out.replace(pattern, input);
    return out;
  };
}
