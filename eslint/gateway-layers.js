// Why: the gateway's folders stand in one order, from the endpoint kernel up to the process, and an
// import may only run down it. Without a rule an import that runs back up (the registry reaching
// into the portal, sync into the registry) goes unnoticed until the folders form a circle. The
// order is this file's data; docs/architecture.md ("The gateway's layers") says why each stands
// where it does.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onImportSources } from './import-sources.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const gatewaySrc = path.join(root, 'gateway', 'src');

/**
 * The gateway's layers, lowest first. A unit is a folder of gateway/src or a file at its top
 * (named without `.ts`). A file may import its own unit and any unit of a lower layer; a unit of
 * the same layer is a sibling and is refused, as is every unit of a higher layer.
 */
export const GATEWAY_LAYERS = [
  ['limits', 'clients'],
  ['service-addresses', 'http'],
  ['identity'],
  ['endpoint'],
  ['sync'],
  ['pipeline'],
  ['openapi'],
  ['site-report'],
  ['registry'],
  ['portal', 'client-pages', 'blobs', 'mcp'],
  ['console'],
  ['app', 'http-edge'],
  ['start-gateway'],
  ['main'],
];

const layerOf = new Map(GATEWAY_LAYERS.flatMap((units, layer) => units.map((unit) => [unit, layer])));

/** The unit of a file under gateway/src (`registry`, `app`), or undefined for a file outside it. */
export function unitOf(file) {
  const rel = path.relative(gatewaySrc, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const [first] = rel.split(path.sep);
  return first.replace(/\.(ts|js)$/, '');
}

function check(context, node, source) {
  if (typeof source !== 'string' || !source.startsWith('.')) return;
  const from = unitOf(context.filename);
  if (from === undefined) return;
  const to = unitOf(path.resolve(path.dirname(context.filename), source));
  if (to === undefined || to === from) return;
  for (const unit of [from, to]) {
    if (!layerOf.has(unit)) {
      context.report({ node, messageId: 'unplaced', data: { unit } });
      return;
    }
  }
  const [fromLayer, toLayer] = [layerOf.get(from), layerOf.get(to)];
  if (toLayer < fromLayer) return;
  const messageId = toLayer === fromLayer ? 'sibling' : 'upward';
  context.report({ node, messageId, data: { source, from, to } });
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: "hold the gateway's folders in their layer order: imports run down only" },
    messages: {
      upward:
        "'{{source}}' runs back up: {{from}} stands below {{to}} in the gateway's layers (eslint/gateway-layers.js). Move what {{from}} needs down, or the caller up.",
      sibling:
        "'{{source}}': {{from}} and {{to}} stand on one layer of the gateway (eslint/gateway-layers.js) and may not import each other. Move what both need to a lower layer.",
      unplaced:
        "'{{unit}}' has no place in the gateway's layers: add it to GATEWAY_LAYERS in eslint/gateway-layers.js.",
    },
    schema: [],
  },
  create: onImportSources(check),
};

export default { rules: { 'gateway-layers': rule } };
