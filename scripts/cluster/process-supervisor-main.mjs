#!/usr/bin/env node
// The supervisor process of one `npm run cluster` topology (cluster.mjs starts it with its plan's
// path): the parent of every cluster process, restarting what exits or stops answering its
// liveness probe (process-supervisor.mjs). SIGTERM (or SIGINT) ends the processes, the gateway
// first, each with its grace period, then the supervisor exits. A cluster started attached (a
// test's) names the process that started it: when that one is gone, everything is SIGKILLed, so a
// killed test run leaves no cluster behind.
import { readFileSync } from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';
import { ProcessSupervisor } from './process-supervisor.mjs';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const supervisor = new ProcessSupervisor(plan);

let stopping;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    stopping ??= supervisor.stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}

if (plan.parentPid) {
  // Reparented: the process that started this attached cluster ended without stopping it.
  const orphaned = setInterval(() => {
    if (process.ppid === plan.parentPid) return;
    clearInterval(orphaned);
    supervisor.killAll();
    process.exit(0);
  }, 1000);
}

await supervisor.start();
