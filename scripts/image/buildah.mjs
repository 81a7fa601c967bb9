// Runs buildah (and the other tools the image scripts call) as child processes. Queries capture
// their output; builds stream theirs to the terminal, since a multi-minute `npm ci` that prints
// nothing until it ends looks hung.
import { spawn } from 'node:child_process';

const TAIL = 4000;

/**
 * Runs `command args` and resolves with its stdout (trimmed). With `inherit`, output goes to this
 * process's stdout/stderr instead and the promise resolves with ''. Rejects naming the command and
 * the end of its stderr.
 */
export function run(command, args, { inherit = false, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-TAIL)));
    child.once('error', (error) =>
      reject(error.code === 'ENOENT' ? new Error(`${command} is not installed (${error.message})`) : error),
    );
    child.once('close', (code, signal) => {
      if (code === 0) return resolve(stdout.trim());
      const how = signal ? `was killed by ${signal}` : `exited with ${code}`;
      reject(new Error(`${command} ${args.join(' ')} ${how}${stderr ? `:\n${stderr.trim()}` : ''}`));
    });
  });
}

export const buildah = (args, options) => run('buildah', args, options);

/** The image's id, or undefined when buildah's storage has no image of that reference. */
export async function imageId(ref) {
  try {
    return await buildah(['inspect', '--type', 'image', '--format', '{{.FromImageID}}', ref]);
  } catch {
    return undefined;
  }
}
