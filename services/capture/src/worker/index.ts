// @fieldops/capture/worker: what tools outside the service use of the reconstruction worker: the
// engine port, the COLMAP engine (scripts/survey/colmap-timing.ts) and the geodesy that places
// photos on a site (survey-fixtures writes synthetic surveys with it).
export type { EngineJob } from './engine.port.js';
export { colmapEngine } from './colmap/colmap.engine.js';
export { enuFrame } from './colmap/geodesy.js';
export type { Geodetic, Vec3 } from './colmap/geodesy.js';
