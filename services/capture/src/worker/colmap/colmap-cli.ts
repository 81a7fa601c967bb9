// Runs one COLMAP command as a child process: its output lines feed progress, its last lines go
// into the error when it fails, and the run's abort signal kills it at once (a run taken over by
// another worker, or a shutdown, leaves no COLMAP process behind).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export class ColmapCommandFailed extends Error {
  readonly command: string;
  readonly exitCode: number | null;
  readonly tail: string[];
  constructor(command: string, exitCode: number | null, tail: string[]) {
    super(`colmap ${command} exited with ${exitCode ?? 'a signal'}: ${tail.slice(-3).join(' | ')}`);
    this.command = command;
    this.exitCode = exitCode;
    this.tail = tail;
    this.name = 'ColmapCommandFailed';
  }
}

export interface ColmapCall {
  bin: string;
  command: string;
  options: Record<string, string | number>;
  cwd: string;
  signal: AbortSignal;
  /** Each line COLMAP prints (stdout and stderr). */
  onLine?: (line: string) => void;
}

const TAIL_LINES = 20;

export const colmapArgs = (command: string, options: Record<string, string | number>): string[] => [
  command,
  ...Object.entries(options).flatMap(([name, value]) => [`--${name}`, String(value)]),
];

export function runColmap(call: ColmapCall): Promise<string[]> {
  call.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn(call.bin, colmapArgs(call.command, call.options), {
      cwd: call.cwd,
      env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    const take = (line: string) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      call.onLine?.(line);
    };
    createInterface({ input: child.stdout }).on('line', take);
    createInterface({ input: child.stderr }).on('line', take);
    const kill = () => child.kill('SIGKILL');
    call.signal.addEventListener('abort', kill, { once: true });
    child.once('error', (error) => {
      call.signal.removeEventListener('abort', kill);
      reject(error);
    });
    child.once('close', (code) => {
      call.signal.removeEventListener('abort', kill);
      if (call.signal.aborted) reject(call.signal.reason);
      else if (code === 0) resolve(tail);
      else reject(new ColmapCommandFailed(call.command, code, tail));
    });
  });
}
