// The index migration of a topology on MongoDB: with MONGODB_URI set, `npm run cluster` runs the
// store-migrate job (platform/src/store-migrate.ts, the image's store-migrate) before any service starts, as the chart runs it in its
// pre-install/pre-upgrade hook Job. Services only check their indexes and refuse to start without
// them, so without this a fresh MongoDB would never get them outside Helm.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JOBS } from '../topology.mjs';
import { tail } from './processes.mjs';

const root = resolve(import.meta.dirname, '..', '..');

/**
 * Runs the store-migrate job on `mongodbUri` with only what the Job's container gets (the URI and
 * NODE_ENV), writing to `log`; resolves when it exits 0, throws with the log's end otherwise.
 */
export async function migrateStores({ mongodbUri, log, cwd }) {
  const fd = openSync(log, 'a');
  const child = spawn(process.execPath, ['--enable-source-maps', join(root, JOBS['store-migrate'])], {
    cwd,
    env: { MONGODB_URI: mongodbUri, NODE_ENV: 'production', PATH: process.env.PATH },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const code = await new Promise((done) =>
    child.once('exit', (exitCode, signal) => done(exitCode ?? signal)),
  );
  if (code !== 0) {
    throw new Error(
      `the index migration (store-migrate) ended with ${code}; the end of ${log}:\n${tail(log)}`,
    );
  }
}
