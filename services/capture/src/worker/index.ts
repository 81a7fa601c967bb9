// @fieldops/capture/worker: what tools outside the service use of the reconstruction worker: the
// engine port and the COLMAP engine (the photogrammetry bench runs it over a blob store). The
// geodesy that places photos on a site is the measurement engine's (@fieldops/measure-engine).
export type { EngineJob } from './engine.port.ts';
export { colmapEngine } from './colmap/colmap.engine.ts';
