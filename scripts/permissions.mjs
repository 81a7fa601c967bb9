// What each process kind may touch under Node's permission model (node --permission), from the
// `permissions` of charts/fieldops/topology.yaml: the one table the chart's commands
// (templates/_helpers.tpl "fieldops.nodeFlags"), the local cluster (scripts/cluster) and `npm start`
// (scripts/start-platform.mjs, the union) turn into flags, and docs/security.md shows (--docs).
// test/deploy/permissions.test.ts checks the chart's and the document's copies against it.
//
// The table names places, not paths: each deployment says where its code, data and scratch are.
//
//   node scripts/permissions.mjs --docs     # rewrites the table in docs/security.md
//   node scripts/permissions.mjs --check    # fails when docs/security.md differs from it
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readTopology } from './topology.mjs';

const root = resolve(import.meta.dirname, '..');
export const SECURITY_DOC = join(root, 'docs', 'security.md');

/** What every kind may read besides its code and folders: its /proc entry (prom-client's metrics). */
export const PROC_SELF = '/proc/self';

/** PATH in the image (the Debian default; the Dockerfile does not change it): the chart's `path` grant. */
export const IMAGE_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * What loading the addon reads besides node_modules: require-addon asks whether this is Alpine
 * (musl) to choose the build, and fs.existsSync throws instead of answering false when refused.
 */
export const ADDON_LOADER_READS = ['/etc/alpine-release'];

/**
 * What the Kafka client reads besides node_modules, in every kind: @platformatic/kafka tries
 * @node-rs/crc32's native CRC32C when it loads, whose loader reads /usr/bin/ldd to tell glibc from
 * musl (a refused read would be logged as a refusal in every process). The addon itself stays
 * refused where addons are not granted, and the client then uses its WebAssembly CRC32C.
 */
export const KAFKA_CLIENT_READS = ['/usr/bin/ldd'];

/**
 * Folders that may not exist when the process starts (its stores, its scratch space): Node treats
 * a granted path that does not exist yet as a file, so the folder is granted with its contents.
 */
const folderAndBelow = (dir) => [dir, `${dir}/*`];

/**
 * Paths without those inside another: Node 24.21 refuses the outer folder itself (a stat of
 * node_modules) when a folder inside it is granted too, so the cluster's bundles, which sit under
 * node_modules, are covered by it instead of granted twice.
 */
export function outermost(paths) {
  const unique = [...new Set(paths)];
  return unique.filter((path) => !unique.some((other) => other !== path && path.startsWith(`${other}/`)));
}

/**
 * One kind's grants where it runs.
 * @param {import('./topology.d.mts').ProcessKind} kind
 * @param {import('./permissions.d.mts').Places} places
 *   code: the folders of its code (bundles, node_modules); dataDir: FIELDOPS_DATA_DIR;
 *   scratchDir: FIELDOPS_SCRATCH_DIR for a kind with `scratch`; awsConfig: the folder of the AWS
 *   SDK's shared files (~/.aws), which a `blobs` kind's S3 client looks in at start; path: the
 *   folders of the process's PATH, for a kind with `path`; tlsDir: FIELDOPS_TLS_DIR, the folder of
 *   its internal certificate when it reads it from files (the local cluster; the chart passes it
 *   in the environment); embeddedStore: no MONGODB_URI.
 * @returns {import('./permissions.d.mts').Grants}
 */
export function grantsOf(kind, places) {
  const p = kind.permissions;
  const own = p.data.map((folder) => join(places.dataDir, folder));
  if (kind.scratch) {
    if (!places.scratchDir)
      throw new Error(`${kind.component} has scratch: true but no scratch folder was given`);
    own.push(places.scratchDir);
  }
  const ownFolders = outermost(own).flatMap(folderAndBelow);
  const aws = kind.blobs ? folderAndBelow(places.awsConfig) : [];
  const tls = places.tlsDir ? folderAndBelow(places.tlsDir) : [];
  // PATH's folders may be missing (a grant of a missing folder is a file's) or inside the code
  // (node_modules/.bin under npm): granted with what is below them, once.
  const path = p.path ? places.path.filter((dir) => dir.startsWith('/')) : [];
  const code = outermost([...places.code, PROC_SELF, ...path]).flatMap((dir) =>
    path.includes(dir) ? folderAndBelow(dir) : [dir],
  );
  const addons = p.addons === 'embedded-store' && places.embeddedStore && p.data.length > 0;
  return {
    kind: kind.component,
    read: [
      ...code,
      ...aws,
      ...tls,
      ...(addons ? ADDON_LOADER_READS : []),
      ...KAFKA_CLIENT_READS,
      ...ownFolders,
    ],
    write: ownFolders,
    childProcess: p.childProcess,
    worker: p.worker,
    addons,
    wasi: p.wasi,
  };
}

/** The union of several kinds' grants (`npm start` runs every kind in one process). */
export function unionOf(grants, kind = 'platform') {
  const unique = (lists) => [...new Set(lists.flat())];
  return {
    kind,
    read: unique(grants.map((g) => g.read)),
    write: unique(grants.map((g) => g.write)),
    childProcess: grants.some((g) => g.childProcess),
    worker: grants.some((g) => g.worker),
    addons: grants.some((g) => g.addons),
    wasi: grants.some((g) => g.wasi),
  };
}

/** Node's flags for the grants, in a fixed order (the chart's helper writes the same). */
export function nodeFlags(grants, { audit = false } = {}) {
  return [
    audit ? '--permission-audit' : '--permission',
    ...grants.read.map((path) => `--allow-fs-read=${path}`),
    ...grants.write.map((path) => `--allow-fs-write=${path}`),
    ...(grants.childProcess ? ['--allow-child-process'] : []),
    ...(grants.worker ? ['--allow-worker'] : []),
    ...(grants.addons ? ['--allow-addons'] : []),
    ...(grants.wasi ? ['--allow-wasi'] : []),
  ];
}

/** One line for `npm run cluster -- status` and `npm start`: what the process holds. */
export function describeGrants(grants) {
  const powers = ['childProcess', 'worker', 'addons', 'wasi'].filter((power) => grants[power]);
  return [
    `writes ${grants.write.length > 0 ? grants.write.join(', ') : 'nothing'}`,
    powers.length > 0 ? `may ${powers.join(', ')}` : 'no programs, threads, addons or WASI',
  ].join('; ');
}

// ---- the table in docs/security.md ------------------------------------------------------------

const BEGIN =
  '<!-- permissions:begin (generated by `node scripts/permissions.mjs --docs` from charts/fieldops/topology.yaml) -->';
const END = '<!-- permissions:end -->';

const yes = (granted, why) => (granted ? `yes: ${why}` : 'no');

/** The Markdown table of every kind's permissions. */
export function permissionsTable(kinds = readTopology()) {
  const rows = kinds.map((kind) => {
    const p = kind.permissions;
    const writes = [...p.data.map((d) => `\`<data>/${d}\``), ...(kind.scratch ? ['`<scratch>`'] : [])];
    const reads = [
      ...(kind.blobs ? ['; reads `~/.aws` (the S3 client looks for its settings there)'] : []),
      ...(p.path ? [`; reads the folders of PATH: ${p.why.path}`] : []),
    ].join('');
    return [
      `\`${kind.component}\``,
      `${writes.length > 0 ? writes.join(', ') : 'nothing'}: ${p.why.data}${reads}`,
      yes(p.childProcess, p.why.childProcess),
      yes(p.worker, p.why.worker),
      p.addons ? `with the embedded store only: ${p.why.addons}` : 'no',
      yes(p.wasi, p.why.wasi),
    ];
  });
  const header = [
    'kind',
    'reads and writes (besides reading its code)',
    'programs',
    'worker threads',
    'native addons',
    'WASI',
  ];
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A Markdown table's text without the padding prettier adds, so the two compare as content. */
export function tableContent(text) {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .map((cell) => cell.trim().replace(/^-+$/, '-'))
        .join('|'),
    )
    .join('\n');
}

/** The generated section of docs/security.md, as written there. */
export function documentedTable(doc = readFileSync(SECURITY_DOC, 'utf8')) {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${SECURITY_DOC} has no ${BEGIN} … ${END} section`);
  return doc.slice(start + BEGIN.length, end);
}

function withTable(doc, table) {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${SECURITY_DOC} has no ${BEGIN} … ${END} section`);
  return `${doc.slice(0, start)}${BEGIN}\n\n${table}\n\n${doc.slice(end)}`;
}

/** docs/security.md with the generated table in its place. */
export function securityDocWithTable(doc = readFileSync(SECURITY_DOC, 'utf8')) {
  return withTable(doc, permissionsTable());
}

if (process.argv[1] === import.meta.filename) {
  const doc = readFileSync(SECURITY_DOC, 'utf8');
  const wanted = securityDocWithTable(doc);
  if (process.argv.includes('--check')) {
    if (tableContent(documentedTable(doc)) !== tableContent(permissionsTable())) {
      console.error(
        `${SECURITY_DOC}'s permission table differs from topology.yaml: node scripts/permissions.mjs --docs`,
      );
      process.exit(1);
    }
  } else if (process.argv.includes('--docs')) {
    // Laid out as prettier lays Markdown tables out, so format:check passes.
    const { format, resolveConfig } = await import('prettier');
    const options = await resolveConfig(SECURITY_DOC);
    writeFileSync(SECURITY_DOC, await format(wanted, { ...options, filepath: SECURITY_DOC }));
  } else {
    console.error('usage: node scripts/permissions.mjs --docs|--check');
    process.exit(2);
  }
}
