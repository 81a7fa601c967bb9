// The process kinds and their wiring, read from charts/fieldops/topology.yaml: the same file the
// Helm chart's templates read, so the chart, the image's bundles (build-bundles.mjs) and the local
// cluster (scripts/cluster/) cannot disagree on what runs and who dials whom.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '..');
export const TOPOLOGY_FILE = join(root, 'charts', 'fieldops', 'topology.yaml');

const SERVES = new Set(['http', 'grpc', 'none']);
const IMAGES = new Set(['app', 'worker']);
const ADDONS = new Set([false, 'embedded-store']);

/** Refuses a permissions block the chart could not render either, naming the field. */
function checkPermissions(kind, where) {
  const p = kind.permissions;
  if (typeof p !== 'object' || p === null) throw new Error(`${where}.permissions is not set`);
  if (!Array.isArray(p.data) || p.data.some((d) => typeof d !== 'string' || !/^[a-z][a-z0-9-]*$/.test(d)))
    throw new Error(`${where}.permissions.data must be a list of folder names`);
  for (const field of ['childProcess', 'worker', 'wasi', 'path']) {
    if (typeof p[field] !== 'boolean') throw new Error(`${where}.permissions.${field} must be true or false`);
  }
  if (!ADDONS.has(p.addons)) throw new Error(`${where}.permissions.addons must be false or embedded-store`);
  for (const grant of ['childProcess', 'worker', 'wasi', 'path']) {
    if (p[grant] && !p.why?.[grant])
      throw new Error(`${where}.permissions.why.${grant} must say why it is granted`);
  }
  if (p.addons && !p.why?.addons)
    throw new Error(`${where}.permissions.why.addons must say why it is granted`);
}

/** Refuses a kind the chart could not render either, naming the field. */
function checkKind(kind, index) {
  const where = `${TOPOLOGY_FILE}: kinds[${index}]`;
  for (const field of ['component', 'process', 'entry']) {
    if (typeof kind[field] !== 'string' || kind[field] === '')
      throw new Error(`${where}.${field} is not set`);
  }
  if (!SERVES.has(kind.serves)) throw new Error(`${where}.serves must be http, grpc or none`);
  for (const field of ['values', 'dials', 'secretKeys']) {
    if (!Array.isArray(kind[field])) throw new Error(`${where}.${field} must be a list`);
  }
  for (const field of ['blobs', 'scratch', 'system']) {
    if (typeof kind[field] !== 'boolean') throw new Error(`${where}.${field} must be true or false`);
  }
  if (!IMAGES.has(kind.image)) throw new Error(`${where}.image must be app or worker`);
  checkPermissions(kind, where);
}

/** @returns {import('./topology.d.mts').ProcessKind[]} every kind, in the file's order */
export function readTopology(file = TOPOLOGY_FILE) {
  const kinds = parse(readFileSync(file, 'utf8'))?.kinds;
  if (!Array.isArray(kinds) || kinds.length === 0) throw new Error(`${file} lists no kinds`);
  kinds.forEach(checkKind);
  const components = new Set(kinds.map((kind) => kind.component));
  for (const kind of kinds) {
    const unknown = kind.dials.filter((target) => !components.has(target));
    if (unknown.length > 0) throw new Error(`${file}: ${kind.component} dials unknown ${unknown.join(', ')}`);
  }
  return kinds;
}

/** The variable a caller reads a service's address from (the chart sets it to <release>-<service>:<grpcPort>). */
export function addressVariable(service) {
  return `FIELDOPS_${service.toUpperCase()}_ADDR`;
}

/**
 * One-shot jobs the image also runs, which are not process kinds: nothing deploys them as a
 * Deployment, the cluster does not start them as services, and topology.yaml does not list them.
 * The chart runs store-migrate as its pre-install/pre-upgrade Job (templates/migrate-job.yaml);
 * `npm run cluster` on MongoDB runs it before the services (scripts/cluster/migrate.mjs).
 * @type {Record<string, string>} job → entry point, relative to the repository root
 */
export const JOBS = { 'store-migrate': 'platform/src/store-migrate.ts' };
