// Run by test/cluster/permissions.test.ts with a cluster process's own node flags and environment
// in place of its entry point: tries each action of argv[2] (JSON) and prints what Node answered, one
// result per action, as JSON. Actions: { write: path } | { spawn: program, args?: [] }.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

function attempt(action) {
  try {
    if (action.write) {
      writeFileSync(action.write, 'the fence probe was here\n');
      return { ok: true };
    }
    const run = spawnSync(action.spawn, action.args ?? [], { encoding: 'utf8', timeout: 60_000 });
    return { ok: true, status: run.status, stdout: (run.stdout ?? '').slice(0, 2000) };
  } catch (err) {
    return { ok: false, code: err.code, permission: err.permission, resource: err.resource };
  }
}

const actions = JSON.parse(process.argv[2] ?? '[]');
process.stdout.write(JSON.stringify(actions.map(attempt)));
