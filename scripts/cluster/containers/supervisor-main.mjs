#!/usr/bin/env node
// The supervisor process of one containerized cluster (containers.mjs starts it with the plan's
// path). Once started it owns everything the start made: the containers, the forwarders to host
// services, the Kafka broker it started and the container network. SIGTERM (or SIGINT) drains the
// containers and takes all of it down, so a stop, a Ctrl-C or the end of the process that started
// it leaves nothing behind.
import { readFileSync } from 'node:fs';
import { stopBroker } from '../../kafka/broker.mjs';
import { forwardTcp } from './forward.mjs';
import { teardownNetwork } from './network.mjs';
import { Supervisor } from './supervisor.mjs';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const forwards = [];
for (const forward of plan.forwards) forwards.push(await forwardTcp(forward));
const supervisor = new Supervisor(plan);

let stopping;
async function stop() {
  await supervisor.stop();
  await Promise.all(forwards.map((f) => f.close()));
  if (plan.kafka?.startedDir) await stopBroker({ dir: plan.kafka.startedDir });
  teardownNetwork(plan.network.plan);
  supervisor.changed();
}
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    stopping ??= stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}

await supervisor.start();
