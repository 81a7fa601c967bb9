// Why: the gateway's folders and each service's stand in one order, from the kernel up to the
// process, and an import may only run down it. Without a rule an import that runs back up (the
// registry reaching into the portal, crm's billing helpers into invoices) goes unnoticed until the
// folders form a circle. The orders are this file's data; docs/architecture.md ("The gateway's
// layers", "The services' layers") says why each stands where it does.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onImportSources } from './import-sources.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

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
  ['collections'],
  ['pipeline'],
  ['openapi'],
  ['site-report'],
  ['registry'],
  ['portal', 'client-pages', 'blobs', 'mcp'],
  ['console', 'index'],
  ['app', 'http-edge'],
  ['start-gateway'],
  ['main'],
];

/**
 * Each service's layers, lowest first, read as GATEWAY_LAYERS: the stored shapes and events at the
 * bottom, the domain folders in the order they use each other, then the handler map, the package
 * face (index), the server and the process entry on top. Where two folders needed each other the
 * shared lower half stands in a folder of its own (crm customers/ below customer-service/, capture
 * session-model/ and run-model/ below sessions/ and runs/, the kit's files/ below process/).
 */
export const SERVICE_LAYERS = {
  audit: [
    ['chain'],
    ['ledger'],
    ['consumer', 'entries'],
    ['handlers'],
    ['index', 'server'],
    ['start-audit'],
    ['main'],
  ],
  capture: [
    ['collections', 'events', 'fields', 'photogrammetry-engines'],
    ['settings', 'metering', 'session-model'],
    ['deps', 'run-model'],
    ['worker', 'projects'],
    ['sessions'],
    ['runs'],
    ['designs', 'scenes'],
    ['handlers'],
    ['index'],
    ['server'],
    ['start-capture'],
    ['main'],
  ],
  crm: [
    ['collections', 'events'],
    ['effects', 'client-links', 'qualification'],
    ['customers'],
    ['deals'],
    ['billing'],
    ['mail', 'bookings', 'leads'],
    ['proposals'],
    ['invoices'],
    ['customer-service', 'billing-services'],
    ['handlers'],
    ['index'],
    ['server'],
    ['main'],
  ],
  exports: [
    ['collections', 'events'],
    ['exports', 'reports'],
    ['packager'],
    ['handlers'],
    ['index', 'server'],
    ['start-exports'],
    ['main'],
  ],
  kit: [
    ['errors', 'ids', 'context', 'env-number', 'log-readable', 'metrics'],
    ['config', 'fast'],
    ['tracing'],
    ['log'],
    ['files', 'health'],
    ['store', 'blobs'],
    ['events', 'grpc', 'write'],
    ['outbox', 'domain', 'adapters'],
    ['process', 'testing'],
    ['index'],
  ],
  'measure-engine': [
    ['errors', 'limits', 'types'],
    ['bounds', 'crs', 'geometry', 'io', 'quantities-message'],
    ['readers', 'surface'],
    ['quantities'],
    ['stated-bases', 'takeoff'],
    ['measure-regions'],
    ['measure-site'],
    ['index'],
  ],
  measurements: [
    ['collections', 'events', 'projects'],
    ['deps'],
    ['regions'],
    ['quantities'],
    ['takeoffs'],
    ['handlers'],
    ['index'],
    ['server'],
    ['main'],
  ],
  projects: [
    ['collections', 'events', 'planning.collections', 'client', 'crm', 'geocoding', 'schedule'],
    ['effects', 'planning.events', 'templates'],
    ['projects'],
    ['customers', 'client-pages', 'records', 'permits', 'tasks'],
    ['compliance', 'day', 'project-schedule', 'handlers'],
    ['planning.handlers'],
    ['index'],
    ['server'],
    ['main'],
  ],
  webhooks: [
    ['collections', 'events'],
    ['subscriptions'],
    ['deliveries'],
    ['dispatch'],
    ['handlers'],
    ['index', 'server'],
    ['start-webhooks'],
    ['main'],
  ],
};

/** Every layered folder (relative to the repository) and its layers. */
export const FOLDER_LAYERS = {
  'gateway/src': GATEWAY_LAYERS,
  ...Object.fromEntries(
    Object.entries(SERVICE_LAYERS).map(([name, layers]) => [`services/${name}/src`, layers]),
  ),
};

const places = Object.entries(FOLDER_LAYERS).map(([folder, layers]) => ({
  folder,
  dir: path.join(root, folder),
  layerOf: new Map(layers.flatMap((units, layer) => units.map((unit) => [unit, layer]))),
}));

/** The layered folder a file lies in and its unit there, or undefined for a file outside them. */
export function placeOf(file) {
  for (const place of places) {
    const rel = path.relative(place.dir, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const [first] = rel.split(path.sep);
    return { place, unit: first.replace(/\.(ts|js)$/, '') };
  }
  return undefined;
}

/** The unit of a file under a layered folder (`registry`, `app`, `billing`), or undefined. */
export function unitOf(file) {
  return placeOf(file)?.unit;
}

function check(context, node, source) {
  if (typeof source !== 'string' || !source.startsWith('.')) return;
  const from = placeOf(context.filename);
  if (from === undefined) return;
  const to = placeOf(path.resolve(path.dirname(context.filename), source));
  if (to === undefined || to.place !== from.place || to.unit === from.unit) return;
  const { folder, layerOf } = from.place;
  for (const unit of [from.unit, to.unit]) {
    if (!layerOf.has(unit)) {
      context.report({ node, messageId: 'unplaced', data: { unit, folder } });
      return;
    }
  }
  const [fromLayer, toLayer] = [layerOf.get(from.unit), layerOf.get(to.unit)];
  if (toLayer < fromLayer) return;
  const messageId = toLayer === fromLayer ? 'sibling' : 'upward';
  context.report({ node, messageId, data: { source, from: from.unit, to: to.unit, folder } });
}

const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        "hold the gateway's and each service's folders in their layer order: imports run down only",
    },
    messages: {
      upward:
        "'{{source}}' runs back up: {{from}} stands below {{to}} in the layers of {{folder}} (eslint/folder-layers.js). Move what {{from}} needs down, or the caller up.",
      sibling:
        "'{{source}}': {{from}} and {{to}} stand on one layer of {{folder}} (eslint/folder-layers.js) and may not import each other. Move what both need to a lower layer.",
      unplaced:
        "'{{unit}}' has no place in the layers of {{folder}}: add it to its table in eslint/folder-layers.js.",
    },
    schema: [],
  },
  create: onImportSources(check),
};

export default { rules: { 'folder-layers': rule } };
