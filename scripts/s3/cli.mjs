#!/usr/bin/env node
// `npm run s3 -- start|stop|status`: the contributor's and CI's S3 server (S3Proxy, signatures
// checked) on 127.0.0.1:9000, its data, credentials and log in .data/s3 (gitignored). S3_DIR and
// S3_PORT move it (S3_PORT=0: a free port, kept for that folder).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instanceCommands } from '../jvm/instance-commands.mjs';
import { runSubcommand } from '../subcommand.mjs';
import { envLine, s3Status, startS3, stopS3 } from './server.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = resolve(process.env.S3_DIR ?? join(root, '.data', 's3'));
const port = Number(process.env.S3_PORT ?? 9000);

const commands = {
  async start() {
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new Error(`S3_PORT must be a port number (0 for a free one), not "${process.env.S3_PORT}"`);
    }
    const server = await startS3({ dir, port });
    console.log(
      `S3 server ${server.reused ? 'already running' : 'started'} at ${server.endpoint}, bucket ${server.bucket} (pid ${server.pid}).`,
    );
    console.log(`Log: ${server.log}`);
    console.log(`Use it: ${envLine(server.env)}`);
  },
  ...instanceCommands({
    what: 'S3 server',
    dir,
    stop: stopS3,
    status: s3Status,
    address: (status) => status.endpoint,
  }),
};

runSubcommand(commands, 'npm run s3 -- start|stop|status');
