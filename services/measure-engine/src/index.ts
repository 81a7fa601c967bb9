// @fieldops/measure-engine, the measurement engine shared by capture and measurements. Its public
// surface: what the reconstruction workers call (measureRegions, measureSite), the readers, the
// takeoff arithmetic the measurements service uses, the types and their proto conversion
// (quantitiesMessage). Generated test clouds are '@fieldops/measure-engine/testing'.
export { measureRegions } from './measure-regions.ts';
export type { MeasureOptions } from './measure-regions.ts';
export { measureSite, wholeSiteRegion, WHOLE_SITE_REGION_ID } from './measure-site.ts';
export { openPointCloud } from './readers/open-point-cloud.ts';
export { emptyBounds, extendBounds } from './bounds.ts';
export type { GrowingBounds } from './bounds.ts';
export { bufferSource, fileSource } from './io/byte-source.ts';
export { accuracyProfile } from './quantities/accuracy-profiles.ts';
export { MATERIALS } from './quantities/materials.ts';
export { bandOf, CONFIDENCE, COVERAGE_FACTOR } from './quantities/bands.ts';
export { buildTakeoff, rollupByCostCode } from './takeoff/build-takeoff.ts';
export { takeoffDelta } from './takeoff/takeoff-delta.ts';
export { EngineError, isEngineError, specCodeOf, toAppError } from './errors.ts';
export type { EngineErrorCode } from './errors.ts';
export * as limits from './limits.ts';
export * from './types.ts';
export type { StatedBaseSpec, StatedRegionInput } from './stated-bases.ts';
export type { ToeBaseKind } from './quantities/toe-bases.ts';
export { enuFrame, frameAround, meanLongitude, toLocalEnu, wrapLongitude } from './geometry/geodesy.ts';
export type { Geodetic, GeodeticOrigin, Vec3 } from './geometry/geodesy.ts';
export { enuCloudFrame, projectedCloudFrame, utmCloudFrame, utmZoneOf } from './geometry/cloud-frame.ts';
export { epsgDefinition } from './crs/epsg-definitions.ts';
export type { EpsgDefinition } from './crs/epsg-definitions.ts';
export type { CloudFrame } from './geometry/cloud-frame.ts';
export { toPolygon } from './geometry/polygon.ts';
export { quantitiesMessage, volumeFiguresMessage } from './quantities-message.ts';
