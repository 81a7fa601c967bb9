#!/usr/bin/env node
// `npm run cluster -- start|stop|status`: the deployed topology on this machine (cluster.mjs), its
// data, logs and state in .data/cluster (FIELDOPS_DATA_DIR moves it). Honours PORT, HOST,
// FIELDOPS_ADMIN_SECRET and FIELDOPS_DEMO as `npm start` does; KAFKA_BROKERS, S3_*, REDIS_URL and
// MONGODB_URI point it at servers of your own.
//
// With --containers, the chart's own Deployments run as containers from the built images
// (containers/containers.mjs), data in .data/containers: `start --containers`, `status
// --containers`, `stop --containers`. S3_*, REDIS_URL and FIELDOPS_ADMIN_SECRET name the host
// services as above; nothing else of this shell reaches a container.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clusterStatus, startCluster, stopCluster } from './cluster.mjs';
import { describeGrants } from '../permissions.mjs';
import { clusterPaths } from './plan.mjs';
import { runSubcommand } from '../subcommand.mjs';

const root = resolve(import.meta.dirname, '..', '..');

/**
 * The demo tenant, on the cluster's first start: scripts/cluster/demo.ts (on Node's type stripping, as it
 * reuses the platform's TypeScript seeding) creates it through the admin API, prints its Manager token
 * and console login, then fills it in the background, logging to logs/demo-seed.log.
 */
function startDemo(cluster) {
  const log = clusterPaths(cluster.dataDir).log('demo-seed');
  const fd = openSync(log, 'a');
  const child = spawn(process.execPath, [join(root, 'scripts', 'cluster', 'demo.ts')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', fd, fd, 'ipc'],
    env: {
      ...process.env,
      FIELDOPS_CLUSTER_URL: cluster.url,
      FIELDOPS_CLUSTER_ADMIN_SECRET: cluster.adminSecret,
      FIELDOPS_CLUSTER_DEMO_FILE: clusterPaths(cluster.dataDir).demo,
    },
  });
  closeSync(fd);
  // The child says what to print once the tenant exists, then goes on filling it alone.
  return new Promise((done, fail) => {
    child.once('message', (lines) => {
      child.disconnect();
      child.unref();
      const filling = process.env.FIELDOPS_DEMO !== '0';
      done(filling ? `${lines}\n  demo tenant filling in the background: ${log}` : lines);
    });
    child.once('exit', (code) =>
      fail(new Error(`the demo tenant was not created (exit ${code}); see ${log}`)),
    );
  });
}

const containersMode = process.argv.includes('--containers');

/** One line per container: kind, pod, state, ready, restarts, address and ports, what is not honoured. */
function printContainers(status) {
  console.log(
    ['KIND'.padEnd(15), 'POD'.padEnd(27), 'STATE'.padEnd(11), 'READY', 'RESTARTS', 'ADDRESS:PORTS'].join(' '),
  );
  for (const c of status.containers) {
    const ports = Object.entries(c.ports)
      .map(([name, port]) => `${name} ${port}`)
      .join(', ');
    const state = c.state === 'waiting' ? `waiting (${c.reason})` : c.state;
    console.log(
      [
        c.component.padEnd(15),
        c.pod.padEnd(27),
        state.padEnd(11),
        String(c.ready).padEnd(5),
        String(c.restarts).padEnd(8),
        `${c.address} ${ports}`,
      ].join(' '),
    );
  }
  const notHonoured = [...new Set(status.containers.flatMap((c) => c.notHonoured))];
  if (notHonoured.length > 0)
    console.log(`not honoured here (no Kubernetes scheduler or API): ${notHonoured.join('; ')}`);
}

const containerCommands = {
  async start() {
    const { startContainerCluster } = await import('./containers/containers.mjs');
    const workers = Number(process.env.FIELDOPS_CLUSTER_WORKERS ?? 2);
    const cluster = await startContainerCluster({ detached: true, workers });
    console.log(
      [
        `fieldops containers are ready; the gateway listens on ${cluster.url} (data in ${cluster.dataDir})`,
        `  operator secret for /admin/v1: in ${cluster.dataDir}/admin-secret`,
        `  logs: ${cluster.dataDir}/logs/<pod>.log; the rendered chart: ${cluster.dataDir}/rendered.yaml`,
      ].join('\n'),
    );
    // The same demo tenant as the process cluster's, created through this gateway.
    if (!existsSync(clusterPaths(cluster.dataDir).demo)) console.log(await startDemo(cluster));
    printContainers(cluster);
  },
  async stop() {
    const { stopContainerCluster } = await import('./containers/containers.mjs');
    const { stopped } = await stopContainerCluster();
    console.log(stopped.length > 0 ? `stopped ${stopped.join(', ')}` : 'no container was running');
  },
  async status() {
    const { containerClusterStatus } = await import('./containers/containers.mjs');
    const status = containerClusterStatus();
    if (!status) {
      console.log('no containerized cluster has been started here (npm run cluster -- start --containers)');
      process.exitCode = 3;
      return;
    }
    console.log(
      `fieldops containers at ${status.url} (data in ${status.dataDir})${status.supervising ? '' : ': the supervisor is not running'}`,
    );
    printContainers(status);
    if (!status.supervising || status.containers.some((c) => c.state !== 'running' || !c.ready))
      process.exitCode = 1;
  },
};

/**
 * One line per process (kind, pid, port, state, ready, restarts by the supervisor), then the node
 * flags it runs with: its kind's permissions (--permission).
 */
function printStatus(status) {
  console.log(
    ['KIND'.padEnd(15), 'PID'.padEnd(8), 'PORT'.padEnd(6), 'STATE'.padEnd(9), 'READY', 'RESTARTS'].join(' '),
  );
  for (const p of status.processes) {
    console.log(
      [
        p.kind.padEnd(15),
        String(p.pid ?? '-').padEnd(8),
        String(p.port ?? '-').padEnd(6),
        p.state.padEnd(9),
        String(p.ready).padEnd(5),
        String(p.restarts),
        p.lastExit && p.restarts > 0
          ? `  last exit: ${p.lastExit.reason} (${p.lastExit.code}) at ${p.lastExit.at}`
          : '',
      ].join(' '),
    );
    const flags = (p.command ?? []).filter((arg) => /^--(permission|allow-)/.test(arg));
    if (flags.length > 0) console.log(`    ${flags.join(' ')}`);
    else if (p.grants) console.log(`    (not running) ${describeGrants(p.grants)}`);
  }
}

const commands = {
  async start() {
    // FIELDOPS_CLUSTER_WORKERS: how many capture-worker processes (2 by default, as the issue asks).
    const workers = Number(process.env.FIELDOPS_CLUSTER_WORKERS ?? 2);
    const cluster = await startCluster({ detached: true, workers });
    const lines = [
      `fieldops cluster is listening on ${cluster.url}: ${cluster.processes.length} processes (data in ${cluster.dataDir})`,
      `  contract:  ${cluster.url}/api/v1/openapi.json`,
      `  health:    ${cluster.url}/healthz`,
      `  logs:      ${clusterPaths(cluster.dataDir).logs}/<process>.log`,
      `  kafka:     ${cluster.kafka.brokers} (topics under ${cluster.kafka.namespace}.)${cluster.kafka.started ? ', broker started by this cluster' : ''}`,
      `  s3:        ${cluster.s3.env.S3_ENDPOINT ?? 'AWS'} bucket ${cluster.s3.env.S3_BUCKET}${cluster.s3.started ? ', server started by this cluster' : ''}`,
    ];
    if (cluster.adminSecretGenerated) {
      lines.push(
        `  operator secret for /admin/v1 (generated, kept in ${clusterPaths(cluster.dataDir).adminSecret}): ${cluster.adminSecret}`,
      );
    } else if (!process.env.FIELDOPS_ADMIN_SECRET) {
      lines.push(`  operator secret for /admin/v1: in ${clusterPaths(cluster.dataDir).adminSecret}`);
    }
    if (!existsSync(clusterPaths(cluster.dataDir).demo)) lines.push(await startDemo(cluster));
    console.log(lines.join('\n'));
    printStatus(clusterStatus({ dataDir: cluster.dataDir }));
  },
  async stop() {
    const { stopped, kafka, s3 } = await stopCluster();
    console.log(stopped.length > 0 ? `stopped ${stopped.join(', ')}` : 'no cluster process was running');
    if (kafka) console.log('stopped the Kafka broker this cluster had started');
    if (s3) console.log('stopped the S3 server this cluster had started');
  },
  async status() {
    const status = clusterStatus();
    if (!status) {
      console.log('no cluster has been started here (npm run cluster -- start)');
      process.exitCode = 3;
      return;
    }
    console.log(
      `fieldops cluster at ${status.url} (data in ${status.dataDir})${status.supervising ? '' : ': the supervisor is not running'}`,
    );
    printStatus(status);
    if (!status.supervising || status.processes.some((p) => p.state !== 'running' || !p.ready))
      process.exitCode = 1;
  },
};

runSubcommand(
  containersMode ? containerCommands : commands,
  'npm run cluster -- start|stop|status [--containers]',
);
