// Measured quantities and takeoffs (spec: Measured quantities and tolerance bands; Other
// resources: Quantities, Takeoff; ENDPOINTS rows 8, 26, 27, 28). Served by
// measurements.MeasurementService. Every continuous figure goes out with its band; a band the
// service does not have (a drawn line) goes out as null, never as zero.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { getProjectQuantities } from './projects.id.quantities.js';
import { remeasureProjectQuantities } from './projects.id.quantities.remeasure.js';
import { getProjectRegions, stateProjectRegions } from './projects.id.regions.js';
import { listProjectTakeoffs } from './projects.id.takeoffs.js';
import { getProjectTakeoff } from './projects.id.takeoffs.takeoffId.js';
import { getProjectTakeoffDelta } from './projects.id.takeoffs.takeoffId.delta.js';
import type { EndpointDef } from '../types.js';

export const measurementEndpoints: EndpointDef[] = [
  getProjectQuantities,
  remeasureProjectQuantities,
  getProjectRegions,
  stateProjectRegions,
  listProjectTakeoffs,
  getProjectTakeoff,
  getProjectTakeoffDelta,
];
