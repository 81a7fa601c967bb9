// The platform as its own OS process, for tests that must kill it for real (SIGKILL cannot be
// simulated in-process: the in-memory state, open file descriptors and timers have to vanish).
// Run with `node test/support/platform-process.ts`; configuration comes from the
// environment exactly as for `npm start`. Once listening it writes one JSON line to stdout,
// {"url", "adminSecret", "pid"}, so a parent can use PORT=0 and still find it. SIGTERM stops it
// cleanly (exit 0), as main.ts does.
import { loadConfig, createLogger } from '@fieldops/kit';
import { startPlatform } from '@fieldops/platform/platform';

export interface PlatformReady {
  url: string;
  adminSecret: string;
  pid: number;
}

const config = loadConfig();
const platform = await startPlatform(config, createLogger('fieldops', config.logLevel));

const ready: PlatformReady = { url: platform.url, adminSecret: platform.adminSecret, pid: process.pid };
process.stdout.write(`${JSON.stringify(ready)}\n`);

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  platform.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`platform stop failed: ${String(err)}\n`);
      process.exit(1);
    },
  );
});
