// A real Apache Kafka broker for the tests, CI and a contributor's machine, started by the project
// itself: the pinned release in pom.xml is resolved from Maven Central by `mvn` (jars in ~/.m2, the
// classpath cached under ~/.cache/fieldops/kafka), its KRaft storage formatted for one combined
// broker+controller node, and the JVM started in the background with its data, config, pid and log
// in one folder. `npm run kafka -- start|stop|status` (cli.mjs) drives the instance in .data/kafka
// on 127.0.0.1:9092; a test that must stop a broker under load starts one of its own here, on
// ephemeral ports, so it disturbs no other test (services/kit/test/support/kafka-broker.ts).
import { Buffer } from 'node:buffer';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  freePort,
  isJvmOf,
  keptInstance,
  readPid,
  resolveMavenClasspath,
  spawnJvm,
  stopJvm,
  tail,
} from '../jvm/background-jvm.mjs';

export { freePort };

const here = dirname(fileURLToPath(import.meta.url));
const POM = join(here, 'pom.xml');
const LOG4J = join(here, 'log4j2.properties');
const MAIN_CLASS = 'kafka.Kafka';
/** A JVM under load on two shared cores can take a while to format, start and elect itself. */
const DEFAULT_READY_TIMEOUT_MS = 120_000;

/** Resolves the broker's jars with Maven once per pinned version; later calls read the cache. */
export const resolveClasspath = () =>
  resolveMavenClasspath({
    pom: POM,
    versionProperty: 'kafka.version',
    name: 'kafka',
    cacheDir: process.env.FIELDOPS_KAFKA_CACHE,
    what: 'Apache Kafka',
  });

function paths(dir) {
  return {
    dir,
    data: join(dir, 'data'),
    config: join(dir, 'server.properties'),
    state: join(dir, 'instance.json'),
    pid: join(dir, 'broker.pid'),
    log: join(dir, 'broker.log'),
  };
}

/**
 * The instance's fixed facts (ports, cluster id), chosen on first use and kept, so a restarted
 * broker comes back where its clients and its own metadata expect it.
 */
const instanceOf = (dir, port) =>
  keptInstance({
    dir,
    stateFile: paths(dir).state,
    port,
    what: 'a broker',
    choose: async (chosen) => ({
      port: chosen,
      controllerPort: await freePort(),
      clusterId: newClusterId(),
    }),
  });

/**
 * Kafka's cluster id: a UUID's 16 bytes in URL-safe base64, drawn again when it starts with "-"
 * as Kafka's own Uuid.randomUuid() does: the storage tool's argument parser reads such an id as an
 * option (about one id in 64), and the broker's format then fails.
 */
export function newClusterId() {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/**
 * The listeners: PLAINTEXT on loopback for this machine's clients, and with `containerListener`
 * a CONTAINERS one on the container network's host address (scripts/cluster/containers), which
 * advertises that address: a client is sent back to the listener it came in on, so containers
 * reach the broker at an address their own network has, and loopback clients at 127.0.0.1.
 */
function listenerProperties(state, containerListener) {
  const own = `PLAINTEXT://127.0.0.1:${state.port}`;
  const containers = containerListener
    ? `CONTAINERS://${containerListener.host}:${containerListener.port}`
    : undefined;
  return [
    `listeners=${[own, `CONTROLLER://127.0.0.1:${state.controllerPort}`, containers].filter(Boolean).join(',')}`,
    `advertised.listeners=${[own, containers].filter(Boolean).join(',')}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    `listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT${containers ? ',CONTAINERS:PLAINTEXT' : ''}`,
  ];
}

function serverProperties(state, dataDir, containerListener) {
  return [
    '# Written by scripts/kafka/broker.mjs: one node that is both broker and KRaft controller.',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${state.controllerPort}`,
    ...listenerProperties(state, containerListener),
    `log.dirs=${dataDir}`,
    // As the Helm chart's clusters are run: topics exist because the platform (or an operator)
    // created them with their partition counts, never as a side effect of a typo.
    'auto.create.topics.enable=false',
    'num.partitions=1',
    'offsets.topic.replication.factor=1',
    // Fewer offset partitions than the default 50: the first consumer group comes up in seconds.
    'offsets.topic.num.partitions=6',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    'log.retention.hours=24',
    '',
  ].join('\n');
}

/** True when `pid` is alive and is the JVM of this instance (not a recycled pid). */
const isOurBroker = (pid, configFile) => isJvmOf(pid, MAIN_CLASS, configFile);

/**
 * Sends an ApiVersions request (v0: every broker answers it) and resolves true on an answer
 * without an error code.
 */
export function answersApiVersions(port, timeoutMs = 2_000) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => {
      const clientId = Buffer.from('fieldops-probe');
      const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length);
      body.writeInt16BE(18, 0); // ApiVersions
      body.writeInt16BE(0, 2);
      body.writeInt32BE(1, 4); // correlation id
      body.writeInt16BE(clientId.length, 8);
      clientId.copy(body, 10);
      const size = Buffer.alloc(4);
      size.writeInt32BE(body.length);
      socket.write(Buffer.concat([size, body]));
    });
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 10) done(received.readInt32BE(4) === 1 && received.readInt16BE(8) === 0);
    });
  });
}

/**
 * The broker is up when its log says so (after `logFrom`: the log keeps earlier runs) and it
 * answers a request on its port.
 */
async function waitUntilReady(p, state, pid, timeoutMs, logFrom = 0) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await isOurBroker(pid, p.config))) {
      throw new Error(`the Kafka broker exited while starting; its log: ${p.log}\n${await tail(p.log)}`);
    }
    const log = (await readFile(p.log).catch(() => Buffer.alloc(0))).subarray(logFrom).toString('utf8');
    if (/Kafka Server started/.test(log) && (await answersApiVersions(state.port))) return;
    await sleep(250);
  }
  throw new Error(
    `the Kafka broker did not answer within ${timeoutMs} ms; its log: ${p.log}\n${await tail(p.log)}`,
  );
}

function runJava(classpath, args) {
  return promisify(execFile)('java', ['-cp', classpath, ...args], { maxBuffer: 16 * 1024 * 1024 });
}

async function formatOnce(p, state, classpath) {
  if (existsSync(join(p.data, 'meta.properties'))) return;
  await runJava(classpath, [
    `-Dlog4j2.configurationFile=${LOG4J}`,
    'kafka.tools.StorageTool',
    'format',
    '--cluster-id',
    state.clusterId,
    '--config',
    p.config,
    '--ignore-formatted',
  ]);
}

/**
 * Starts the broker of `dir` (default port 9092; 0 picks a free one) unless it runs already, and
 * resolves once it answers: { port, brokers, pid, log, dir, reused }. `containerListener`
 * ({ host, port }) adds a listener for a container network (listenerProperties).
 */
export async function startBroker({
  dir,
  port = 9092,
  readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS,
  containerListener,
} = {}) {
  const p = paths(dir);
  const state = await instanceOf(dir, port);
  const running = await readPid(p.pid);
  if (running !== undefined && (await isOurBroker(running, p.config))) {
    await waitUntilReady(p, state, running, readyTimeoutMs);
    return describe(p, state, running, true);
  }
  if (await answersApiVersions(state.port, 500)) {
    throw new Error(`something else answers on 127.0.0.1:${state.port}; it is not the broker of ${dir}`);
  }
  const classpath = await resolveClasspath();
  await mkdir(p.data, { recursive: true });
  await writeFile(p.config, serverProperties(state, p.data, containerListener));
  await formatOnce(p, state, classpath);
  const logFrom = existsSync(p.log) ? statSync(p.log).size : 0;
  const pid = await spawnJvm({
    classpath,
    jvmArgs: [
      '-Xms256m',
      '-Xmx768m',
      '-XX:+UseG1GC',
      '-Djava.awt.headless=true',
      `-Dlog4j2.configurationFile=${LOG4J}`,
    ],
    mainClass: MAIN_CLASS,
    args: [p.config],
    log: p.log,
    pidFile: p.pid,
  });
  await waitUntilReady(p, state, pid, readyTimeoutMs, logFrom);
  return describe(p, state, pid, false);
}

function describe(p, state, pid, reused) {
  return { port: state.port, brokers: `127.0.0.1:${state.port}`, pid, log: p.log, dir: p.dir, reused };
}

/** Ends exactly the broker this folder started (TERM, then KILL after 30 s); false if none ran. */
export const stopBroker = ({ dir, kill = false } = {}) =>
  stopJvm({ pidFile: paths(dir).pid, mainClass: MAIN_CLASS, configFile: paths(dir).config, kill });

/** { running, pid?, port?, brokers?, log, dir } of the broker of `dir`. */
export async function brokerStatus({ dir } = {}) {
  const p = paths(dir);
  const pid = await readPid(p.pid);
  const state = existsSync(p.state) ? JSON.parse(await readFile(p.state, 'utf8')) : undefined;
  const running = pid !== undefined && (await isOurBroker(pid, p.config));
  if (!running || state === undefined) return { running: false, log: p.log, dir };
  return { running: true, answering: await answersApiVersions(state.port), ...describe(p, state, pid, true) };
}
