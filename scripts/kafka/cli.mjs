#!/usr/bin/env node
// `npm run kafka -- start|stop|status`: the contributor's and CI's Apache Kafka broker on
// 127.0.0.1:9092, its data and log in .data/kafka (gitignored). KAFKA_DIR and KAFKA_PORT move it.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instanceCommands } from '../jvm/instance-commands.mjs';
import { runSubcommand } from '../subcommand.mjs';
import { brokerStatus, startBroker, stopBroker } from './broker.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = resolve(process.env.KAFKA_DIR ?? join(root, '.data', 'kafka'));
const port = Number(process.env.KAFKA_PORT ?? 9092);

const commands = {
  async start() {
    const broker = await startBroker({ dir, port });
    console.log(
      `Kafka broker ${broker.reused ? 'already running' : 'started'} at ${broker.brokers} (pid ${broker.pid}).`,
    );
    console.log(`Log: ${broker.log}`);
    console.log(`Use it: KAFKA_BROKERS=${broker.brokers}`);
  },
  ...instanceCommands({
    what: 'Kafka broker',
    dir,
    stop: stopBroker,
    status: brokerStatus,
    address: (status) => status.brokers,
  }),
};

runSubcommand(commands, 'npm run kafka -- start|stop|status');
