// laz-perf (the PDAL authors' LAZ decoder, compiled to WebAssembly) with the few members the
// reader uses, typed here: the package's own types lean on @types/emscripten, which the project
// does not install. The module loads laz-perf.wasm from beside its own script in node_modules
// (the image installs laz-perf as a production dependency; the bundles import it, never inline it).
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

/**
 * A fresh module per file read: a decoder that aborts on corrupt data may leave its module
 * unusable, so one bad upload never breaks the next. Compiling the 210 kB of WebAssembly costs a
 * few milliseconds against seconds of decoding.
 */
export function loadLazPerf(): Promise<LazPerfModule> {
  return (createLazPerf as unknown as () => Promise<LazPerfModule>)();
}
