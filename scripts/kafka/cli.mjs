#!/usr/bin/env node
// `npm run kafka -- start|stop|status`: the contributor's and CI's Apache Kafka broker on
// 127.0.0.1:9092, its data and log in .data/kafka (gitignored). KAFKA_DIR and KAFKA_PORT move it.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  async stop() {
    const stopped = await stopBroker({ dir });
    console.log(stopped ? `Kafka broker of ${dir} stopped.` : `No Kafka broker of ${dir} was running.`);
  },
  async status() {
    const status = await brokerStatus({ dir });
    if (!status.running) {
      console.log(`No Kafka broker of ${dir} is running.`);
      process.exitCode = 3;
      return;
    }
    const answer = status.answering ? 'answering' : 'not answering';
    console.log(`Kafka broker at ${status.brokers} (pid ${status.pid}), ${answer}. Log: ${status.log}`);
    if (!status.answering) process.exitCode = 1;
  },
};

const command = commands[process.argv[2] ?? ''];
if (command === undefined) {
  console.error('usage: npm run kafka -- start|stop|status');
  process.exit(2);
}
command().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
