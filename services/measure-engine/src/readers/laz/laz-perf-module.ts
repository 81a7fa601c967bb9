// laz-perf (the PDAL authors' LAZ decoder, compiled to WebAssembly) with the few members the
// reader uses, typed here: the package's own types lean on @types/emscripten, which the project
// does not install. The module loads laz-perf.wasm from beside its own script in node_modules
// (the image installs laz-perf as a production dependency; the bundles import it, never inline it).
import type { EventEmitter } from 'node:events';
import { createLazPerf } from 'laz-perf';

export interface ChunkDecoder {
  open(pointFormat: number, recordBytes: number, pointer: number): void;
  getPoint(pointer: number): void;
  delete(): void;
}

export interface LazPerfModule {
  readonly HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  readonly ChunkDecoder: new () => ChunkDecoder;
}

/** The process events Emscripten's Node glue listens to, for a program's exit, not a library's. */
const EMSCRIPTEN_PROCESS_EVENTS = ['uncaughtException', 'unhandledRejection'] as const;

/**
 * A fresh module per file read: a decoder that aborts on corrupt data may leave its module
 * unusable, so one bad upload never breaks the next. Compiling the 210 kB of WebAssembly costs a
 * few milliseconds against seconds of decoding.
 *
 * Emscripten's glue adds a listener of each event above to the process on every instantiation, and
 * never removes it: each held its module, WebAssembly memory included, for the life of the process
 * (3-5 MB more resident memory a LAZ read), and rethrew what it was given. It adds them
 * synchronously when called, so the listeners that appear during the call are this module's, and
 * go at once.
 */
export function loadLazPerf(): Promise<LazPerfModule> {
  // The process as the emitter it is: the two events' listeners are only compared and removed.
  const emitter: EventEmitter = process;
  const before = EMSCRIPTEN_PROCESS_EVENTS.map((event) => new Set(emitter.listeners(event)));
  const loading = (createLazPerf as unknown as () => Promise<LazPerfModule>)();
  EMSCRIPTEN_PROCESS_EVENTS.forEach((event, i) => {
    for (const listener of emitter.listeners(event)) {
      if (!before[i]?.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void);
    }
  });
  return loading;
}
