// @fieldops/measure-engine, the measurement engine shared by capture and measurements. Its public
// surface: what the reconstruction workers call (measureRegions, measureSite), the readers, the
// takeoff arithmetic the measurements service uses, the types and their proto conversion
// (quantitiesMessage). Generated test clouds are '@fieldops/measure-engine/testing'.
export { measureRegions } from './measure-regions.js';
export type { MeasureOptions } from './measure-regions.js';
export { measureSite, wholeSiteRegion, WHOLE_SITE_REGION_ID } from './measure-site.js';
export { openPointCloud } from './readers/open-point-cloud.js';
export { emptyBounds, extendBounds } from './bounds.js';
export type { GrowingBounds } from './bounds.js';
export { bufferSource, fileSource } from './io/byte-source.js';
export { accuracyProfile } from './quantities/accuracy-profiles.js';
export { MATERIALS } from './quantities/materials.js';
export { bandOf, CONFIDENCE, COVERAGE_FACTOR } from './quantities/bands.js';
export { buildTakeoff, rollupByCostCode } from './takeoff/build-takeoff.js';
export { takeoffDelta } from './takeoff/takeoff-delta.js';
export { EngineError, isEngineError, specCodeOf, toAppError } from './errors.js';
export type { EngineErrorCode } from './errors.js';
export * as limits from './limits.js';
export * from './types.js';
export type { StatedBaseSpec, StatedRegionInput } from './stated-bases.js';
export type { ToeBaseKind } from './quantities/toe-bases.js';
export { enuFrame, frameAround, meanLongitude, toLocalEnu, wrapLongitude } from './geometry/geodesy.js';
export type { Geodetic, GeodeticOrigin, Vec3 } from './geometry/geodesy.js';
export { enuCloudFrame, projectedCloudFrame, utmCloudFrame, utmZoneOf } from './geometry/cloud-frame.js';
export { epsgDefinition } from './crs/epsg-definitions.js';
export type { EpsgDefinition } from './crs/epsg-definitions.js';
export type { CloudFrame } from './geometry/cloud-frame.js';
export { toPolygon } from './geometry/polygon.js';
export { quantitiesMessage, volumeFiguresMessage } from './quantities-message.js';
