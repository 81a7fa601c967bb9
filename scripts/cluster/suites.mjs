// Which HTTP suites (test/<name>.http.test.ts) run through the deployed topology, in which group of
// settings, and why the others cannot. One list: `npm run test:cluster` runs GROUPS,
// test/suites-through-topology.test.ts checks that every *.http suite is in exactly one group or
// has a reason here, and docs/deploy.md ("Suites through the topology") carries suitesTable().
//
// A suite is black-box when it talks to the platform only as a client does: HTTP to the gateway,
// plus what the harness gives it on a cluster too (test/support/harness.ts, FIELDOPS_TEST_TARGET=
// cluster): the operator secret, each service's gRPC address with the cluster's test certificate
// (for suites that play capture or a portal sync), and receivers of its own on 127.0.0.1.
//
// A cluster's settings are fixed when it starts, and a suite refuses a cluster whose settings
// differ from what it asks (harness clusterTestPlatform), so there is a group per set of settings.
// A group whose settings differ from the group before it only in settings the gateway alone acts
// on (GATEWAY_SETTINGS) runs on that group's cluster, its gateway restarted with the new settings:
// a start of one process instead of ten. Such groups follow each other below for that reason.

/**
 * @typedef {{ name: string, env: Record<string, string>, suites: string[],
 *   containerValues?: Record<string, unknown>, containers?: false | string[], why?: string,
 *   oneAtATime?: string, closesCluster?: string }} Group
 * `containers` names the suites `--containers` runs (all when absent, none when false); `why`
 * says why the others run through processes only; `closesCluster` why no later group may run on
 * its cluster.
 */

/**
 * The settings only the gateway acts on: the rate buckets, the consequence budgets, the token caps,
 * the cursor key and the HTTP server's deadlines. Every process reads them with the rest of its
 * configuration, but only gateway code uses what they set; test/suites-through-topology.test.ts
 * checks that against services/kit/src/config.ts and the sources.
 */
export const GATEWAY_SETTINGS = [
  'FIELDOPS_RATE_READS_PER_MIN',
  'FIELDOPS_RATE_WRITES_PER_MIN',
  'FIELDOPS_BUDGET_EMAILS',
  'FIELDOPS_BUDGET_SMS',
  'FIELDOPS_BUDGET_CHARGES',
  'FIELDOPS_BUDGET_PUBLISHES',
  'FIELDOPS_BUDGET_COMPUTE',
  'FIELDOPS_TENANT_BUDGET_EMAILS',
  'FIELDOPS_TENANT_BUDGET_SMS',
  'FIELDOPS_TENANT_BUDGET_CHARGES',
  'FIELDOPS_TENANT_BUDGET_PUBLISHES',
  'FIELDOPS_TENANT_BUDGET_COMPUTE',
  'FIELDOPS_TOKENS_PER_MEMBER',
  'FIELDOPS_TOKENS_PER_TENANT',
  'FIELDOPS_CURSOR_KEY',
  'FIELDOPS_HTTP_HEADERS_TIMEOUT_MS',
  'FIELDOPS_HTTP_REQUEST_TIMEOUT_MS',
  'FIELDOPS_HTTP_UPLOAD_TIMEOUT_MS',
  'FIELDOPS_HTTP_KEEP_ALIVE_TIMEOUT_MS',
  'FIELDOPS_HTTP_MAX_CONNECTIONS',
];

/** The settings whose values differ between two groups (one group has a setting the other lacks, too). */
export function differingSettings(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => a[key] !== b[key]);
}

/** Whether `next` runs on the cluster of `last`, the gateway alone restarted with next's settings. */
export function sharesCluster(last, next) {
  if (!last || last.closesCluster) return false;
  return differingSettings(last.env, next.env).every((key) => GATEWAY_SETTINGS.includes(key));
}

/** Why a group runs (some of) its suites through processes only. */
const WHY_TIME =
  'CI time: the same code runs as processes; containers add the chart and the images, which the listed suites show';
const WHY_RECEIVERS = "receivers on the runner's 127.0.0.1, which the containers' network does not reach";

/** The default group's suites that the containers run too: the ones that ran there before. */
const CONTAINER_SUITES = [
  'leads',
  'deals',
  'lead-convert',
  'customers',
  'projects',
  'project-lifecycle',
  'project-read',
  'bookings',
  'schedule',
  'designs',
  'audit',
  'changes',
  'scenes',
];

/** @type {Group[]} */
export const GROUPS = [
  {
    name: 'default',
    env: {},
    containers: CONTAINER_SUITES,
    why: WHY_TIME,
    closesCluster:
      'its forty suites leave captures, exports and deliveries running behind them, and the groups after it time deadlines',
    suites: [
      ...CONTAINER_SUITES,
      'audit-scope',
      'auth',
      'capture-race',
      'compliance',
      'console',
      'contract',
      'cross-cutting-reads',
      'crs',
      'edge',
      'fuzz',
      'laz',
      'mcp-remote',
      'mcp-server',
      'parser-refusals',
      'planning',
      'project-records',
      'quantities',
      'quantities-report',
      'references',
      'refusals',
      'regions',
      'reports',
      'resources',
      'routing',
      'takeoffs',
      'tool-executor',
      'typed-client',
      'webhook-ssrf',
      'client-pages',
      'process',
    ],
  },
  // Short header and request deadlines and a connection cap at the gateway's HTTP server.
  {
    name: 'slow-clients',
    containers: false,
    why: WHY_TIME,
    env: {
      FIELDOPS_HTTP_HEADERS_TIMEOUT_MS: '600',
      FIELDOPS_HTTP_REQUEST_TIMEOUT_MS: '1200',
      FIELDOPS_HTTP_KEEP_ALIVE_TIMEOUT_MS: '600',
      FIELDOPS_HTTP_MAX_CONNECTIONS: '40',
    },
    suites: ['edge-slow-clients'],
  },
  {
    name: 'proposals',
    env: { FIELDOPS_BUDGET_EMAILS: '5' },
    suites: ['proposals', 'replay-costs-nothing'],
    containers: ['proposals'],
    why: WHY_TIME,
  },
  { name: 'invoices', env: { FIELDOPS_BUDGET_EMAILS: '3' }, suites: ['invoices'] },
  {
    name: 'one-compute',
    containers: false,
    why: WHY_TIME,
    env: { FIELDOPS_BUDGET_COMPUTE: '1' },
    suites: ['mcp-errors'],
  },
  {
    name: 'lead-qualify',
    containers: false,
    why: WHY_TIME,
    env: { FIELDOPS_BUDGET_COMPUTE: '4' },
    suites: ['lead-qualify'],
  },
  {
    name: 'token-caps',
    containers: false,
    why: WHY_TIME,
    env: {
      FIELDOPS_TOKENS_PER_MEMBER: '2',
      FIELDOPS_TOKENS_PER_TENANT: '5',
      FIELDOPS_TENANT_BUDGET_COMPUTE: '3',
    },
    suites: ['token-caps'],
  },
  // Small buckets: requests beyond them are the envelope's 429.
  {
    name: 'rate-limits',
    containers: false,
    why: WHY_TIME,
    env: { FIELDOPS_RATE_READS_PER_MIN: '5', FIELDOPS_RATE_WRITES_PER_MIN: '3' },
    suites: ['pipeline'],
  },
  // Ten wrong operator secrets lock the runner's address out of the admin API for minutes, in the
  // cluster's Redis keys: the last group on its cluster, so no other suite's admin calls meet it.
  {
    name: 'admin-lockout',
    containers: false,
    why: WHY_TIME,
    env: {},
    suites: ['secrets-at-the-edge'],
    closesCluster: "the lockout it sets stays in the cluster's Redis keys for minutes",
  },
  // COLMAP reconstructs drone photos on the capture workers: minutes of CPU, a group of its own so
  // CI can choose where it runs.
  {
    name: 'photogrammetry',
    env: {},
    suites: ['photogrammetry', 'demo-seed'],
    containers: false,
    why: 'minutes of COLMAP per survey; test/containers reconstructs a survey on a worker container',
    oneAtATime: 'two surveys at once would share the two cores, each taking twice its time',
  },
  // The operator's cancel fee, and no photogrammetry engine (COLMAP is installed here): processes
  // find none with FIELDOPS_COLMAP_BIN=off; the chart declares none (containerValues).
  {
    name: 'capture',
    env: { FIELDOPS_CAPTURE_CANCEL_FEE_CENTS: '750', FIELDOPS_COLMAP_BIN: 'off' },
    containerValues: { config: { photogrammetry: { colmap: false } } },
    suites: ['capture'],
  },
  // Each counts on a budget of its own (consequences per token and hour).
  {
    name: 'exports',
    env: { FIELDOPS_BUDGET_COMPUTE: '10', FIELDOPS_EXPORT_POLL_MS: '100' },
    suites: ['exports'],
  },
  // Deliveries to receivers on 127.0.0.1 (the suite's own), which a production platform refuses.
  {
    name: 'webhooks',
    containers: false,
    why: WHY_RECEIVERS,
    env: { FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1' },
    suites: ['webhooks', 'audit-every-write'],
  },
  {
    name: 'cursors',
    containers: false,
    why: WHY_TIME,
    env: {
      FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
      FIELDOPS_CURSOR_KEY: 'cursor-suite-key-0123456789abcdefghijklmnop',
    },
    suites: ['cursors'],
  },
  {
    name: 'webhook-delivery',
    containers: false,
    why: WHY_RECEIVERS,
    env: {
      FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
      FIELDOPS_WEBHOOK_RETRY_DELAYS_MS: '150,150,150',
      FIELDOPS_WEBHOOK_POLL_MS: '50',
      FIELDOPS_WEBHOOK_TIMEOUT_MS: '3000',
      FIELDOPS_WEBHOOK_TENANT_CONCURRENCY: '8',
    },
    suites: ['webhook-delivery'],
  },
  {
    name: 'webhook-reach',
    containers: false,
    why: WHY_RECEIVERS,
    env: {
      FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
      FIELDOPS_WEBHOOK_POLL_MS: '50',
      FIELDOPS_WEBHOOK_MAX_SUBSCRIPTIONS: '4',
    },
    suites: ['webhook-reach'],
  },
  {
    name: 'webhook-fairness',
    containers: false,
    why: WHY_RECEIVERS,
    env: {
      FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
      FIELDOPS_WEBHOOK_POLL_MS: '50',
      FIELDOPS_WEBHOOK_TIMEOUT_MS: '8000',
      FIELDOPS_WEBHOOK_RETRY_DELAYS_MS: '3600000',
    },
    suites: ['webhook-fairness'],
  },
];

/** Suites that need a handle into a process, so they run only in process (`npm test`), and why. */
export const IN_PROCESS_ONLY = {
  'confirmation-expiry': 'moves the platform clock (jest fake timers) to expire a confirmation',
  crash: 'SIGKILLs the platform process mid-write and restarts it on the same data dir',
  'restart-crash': 'kills the platform during its restart and starts it again on the same data dir',
  'webhook-crash': 'SIGKILLs the platform mid-delivery and restarts it on the same data dir',
  'exports-crash': 'stops the platform mid-export and restarts it on the same data dir',
  'kafka-outage': 'stops and restarts the Kafka broker under a platform of its own',
  'kafka-restart': 'restarts the platform on its data dir against the same Kafka namespace',
  'data-file-modes': "reads the file modes in the platform's data dir",
  'scratch-dir': "reads the platform's scratch directory in its data dir",
  'password-hashing': "writes an old-style hash into the identity store of the platform's data dir",
  'write-deadline': 'starts a gateway of its own in process against gRPC peers it stalls',
  'photogrammetry-engines': 'starts platforms with engine settings that must refuse to start',
  'trusted-proxies': 'starts a platform per test, each with other trusted-proxy settings',
  trace:
    "starts the platform as a child process exporting to the suite's own OTLP collector; the topology's trace is test/cluster/trace.test.ts",
};

/**
 * Black-box suites with a part that needs a handle into the process (describeInProcess/itInProcess
 * in test/support/suite-tenant.ts): the part runs in `npm test` and is skipped on a cluster.
 */
export const PARTS_IN_PROCESS_ONLY = {
  'webhook-delivery':
    'the dispatcher restart stops the platform mid-stream and starts it again on its data dir',
  process:
    'a capture in flight needs a platform with no capture workers, and the compute budget one of budget 1, beside the suite’s',
  'client-pages':
    'expired links need a platform whose links live one second, and the reads allowance one of 3 reads a minute',
};

/** The suites of a group that run through the chart's containers (`--containers`). */
export function containerSuites(group) {
  if (group.containers === undefined) return group.suites;
  return group.containers === false ? [] : group.suites.filter((suite) => group.containers.includes(suite));
}

/** The markdown table of docs/deploy.md "Suites through the topology" (the test checks it is there). */
export function suitesTable() {
  const rows = [
    '| Group | Settings | Suites | Through the containers too |',
    '| --- | --- | --- | --- |',
    ...GROUPS.map(
      (g) => `| ${g.name} | ${settingsOf(g.env)} | ${g.suites.join(', ')} | ${throughContainers(g)} |`,
    ),
    '',
    '| Suite | Part in process only, and why |',
    '| --- | --- |',
    ...Object.entries(PARTS_IN_PROCESS_ONLY).map(([suite, why]) => `| ${suite} | ${why} |`),
    '',
    '| Suite (in process only) | Why it needs a handle into a process |',
    '| --- | --- |',
    ...Object.entries(IN_PROCESS_ONLY).map(([suite, why]) => `| ${suite} | ${why} |`),
  ];
  return rows.join('\n');
}

function throughContainers(group) {
  if (group.containers === undefined) return 'all';
  if (group.containers === false) return `none: ${group.why}`;
  return `${group.containers.join(', ')}; not the others: ${group.why}`;
}

const settingsOf = (env) =>
  Object.keys(env).length === 0
    ? 'none beyond the generous limits'
    : Object.entries(env)
        .map(([key, value]) => `${key}=${value.length > 12 ? '…' : value}`)
        .join(', ');

// `node scripts/cluster/suites.mjs`: print the table (to paste into docs/deploy.md).
if (import.meta.url === `file://${process.argv[1]}`) console.log(suitesTable());
