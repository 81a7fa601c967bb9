// What a volume report states, gathered from the services: the newest quantities snapshot, the
// run that measured it (engine, reconstruction quality, capture date), the stated regions it
// measured (their WGS 84 toes, for the GeoJSON), and the project's name. Each figure keeps its
// unit and band beside it (a number without its unit is never reported). The PDF, the CSV and the
// GeoJSON are all written from this one object, so they cannot disagree.
import { AppError, type RequestContext } from '@fieldops/kit';
import { callUnary } from '@fieldops/kit/grpc';
import type { capture, measurements } from '@fieldops/proto';
import type { ServiceClients } from '../clients.ts';

/** The figures a report gives per region, in its table's order; volume is the net (fill − cut). */
export const REPORT_FIELDS = [
  { key: 'net', label: 'Volume (net)' },
  { key: 'cut', label: 'Cut' },
  { key: 'fill', label: 'Fill' },
  { key: 'footprint', label: 'Footprint' },
  { key: 'tonnage', label: 'Tonnage' },
] as const;
export type ReportField = (typeof REPORT_FIELDS)[number]['key'];

export interface ReportFigure {
  value: number;
  unit: string;
  /** The band in the figure's unit; null when the service gave none (never shown as zero). */
  plusMinus: number | null;
  relativeFraction: number | null;
  confidence: number | null;
}

export interface ReportRegion {
  id: string;
  name: string;
  /** triangulated | fitted-plane | lowest-point | elevation. */
  base: string;
  material: string;
  figures: Partial<Record<ReportField, ReportFigure>>;
  /** The toe as stated (WGS 84, [lng, lat]); null for the automatic whole-capture region. */
  toe: [number, number][] | null;
  /** The outline in metres of the capture's plan frame, as the picture draws it. */
  outline: [number, number][] | null;
}

export interface ReportQuality {
  photosGiven: number;
  photosRegistered: number;
  meanReprojectionErrorPx: number;
  gsdM: number | null;
  alignmentRmseM: number;
  domeCurvaturePerM: number | null;
  warnings: string[];
}

export interface QuantityReport {
  projectId: string;
  projectName: string;
  quantitiesId: string;
  runId: string;
  captureId: string;
  measuredAt: string;
  basis: string;
  regionVersion: number;
  engine: string;
  captureDate: { value: string; source: string };
  /** Null for a cloud uploaded as is (no photogrammetry: no photos to register). */
  quality: ReportQuality | null;
  coordinateSystem: string;
  datum: string;
  horizontalUnit: string;
  verticalUnit: string;
  heightDatum: string;
  confidence: number;
  regions: ReportRegion[];
  rollup: Partial<Record<ReportField, ReportFigure>>;
  disclosures: string[];
  /** The scene whose cloud the picture is drawn from, when the run made one. */
  scene: capture.Scene | null;
  /** As the service answered it (the picture reads the outlines from it). */
  snapshot: measurements.QuantitiesSnapshot;
}

const MEASURED_NOTHING = (projectId: string) =>
  `Nothing has been measured on project ${projectId} yet, so there is no volume report; one is made for each quantities snapshot once a capture with 3D points has been processed.`;

function figuresOf(f: measurements.VolumeFigures | undefined): Partial<Record<ReportField, ReportFigure>> {
  if (!f) return {};
  const out: Partial<Record<ReportField, ReportFigure>> = {};
  for (const { key } of REPORT_FIELDS) {
    const value = key === 'tonnage' ? f.tonnage : f[key];
    if (value === undefined || value === null) continue;
    const band = f.bands[key];
    out[key] = {
      value,
      unit: f.units[key] ?? band?.unit ?? '',
      plusMinus: band?.plusMinus ?? null,
      relativeFraction: band?.relativeFraction ?? null,
      confidence: band?.confidence ?? null,
    };
  }
  return out;
}

function regionOf(
  region: measurements.RegionQuantities,
  stated: ReadonlyMap<string, measurements.StatedRegion>,
): ReportRegion {
  const toe = stated.get(region.regionId);
  return {
    id: region.regionId,
    name: region.name ?? toe?.name ?? region.regionId,
    base: region.base?.kind ?? '',
    material: region.material ?? '',
    figures: figuresOf(region.figures),
    toe: toe ? toe.polygon.map((p): [number, number] => [p.lng, p.lat]) : null,
    outline: region.outline.length >= 3 ? region.outline.map((v): [number, number] => [v.x, v.y]) : null,
  };
}

function qualityOf(r: capture.ReconstructionQuality | undefined): ReportQuality | null {
  if (!r) return null;
  return {
    photosGiven: r.photosGiven,
    photosRegistered: r.photosRegistered,
    meanReprojectionErrorPx: r.meanReprojectionErrorPx,
    gsdM: r.gsdM ?? null,
    alignmentRmseM: r.alignmentRmseM,
    domeCurvaturePerM: r.warpCurvaturePerM ?? null,
    warnings: r.warnings.map((w) => w.message),
  };
}

/** When the data was captured: the photos' EXIF date, else when the upload was finalized. */
async function captureDateOf(
  clients: ServiceClients,
  snapshot: measurements.QuantitiesSnapshot,
  run: capture.Run,
  ctx: RequestContext,
): Promise<{ value: string; source: string }> {
  const taken = run.reconstruction?.captureDate;
  if (taken?.takenAt) return { value: taken.takenAt, source: `photos' EXIF (${taken.source})` };
  const session = await callUnary(
    clients.capture,
    'getCapture',
    { projectId: snapshot.projectId, sessionId: snapshot.captureId },
    ctx,
  );
  return { value: session.finalizedAt, source: 'upload finalized (the file states no capture date)' };
}

async function statedRegions(
  clients: ServiceClients,
  snapshot: measurements.QuantitiesSnapshot,
  ctx: RequestContext,
): Promise<Map<string, measurements.StatedRegion>> {
  if (snapshot.regionVersion === 0) return new Map();
  const set = await callUnary(
    clients.measurements,
    'getRegions',
    { projectId: snapshot.projectId, version: snapshot.regionVersion },
    ctx,
  );
  return new Map(set.regions.map((region) => [region.id, region]));
}

/** A file that states no unit was measured in metres (disclosed); one that does, in its unit. */
function unitName(unit: measurements.LinearUnit | undefined): string {
  if (!unit || unit.name === 'unknown') return 'not stated by the file, taken as metres';
  return `${unit.name} (1 unit = ${unit.metres} m)`;
}

/** The report of the project's newest snapshot; not_found when nothing was measured on it. */
export async function quantityReport(
  clients: ServiceClients,
  projectId: string,
  ctx: RequestContext,
): Promise<QuantityReport> {
  const [snapshot, project] = await Promise.all([
    callUnary(clients.measurements, 'getQuantities', { projectId }, ctx),
    callUnary(clients.projects, 'getProject', { id: projectId }, ctx),
  ]);
  const q = snapshot.quantities;
  if (!q || !snapshot.id) throw new AppError('not_found', MEASURED_NOTHING(projectId));
  const run = await callUnary(clients.capture, 'getRun', { projectId, runId: snapshot.runId }, ctx);
  const [stated, captureDate, scene] = await Promise.all([
    statedRegions(clients, snapshot, ctx),
    captureDateOf(clients, snapshot, run, ctx),
    run.sceneId
      ? callUnary(clients.capture, 'getScene', { projectId, sceneId: run.sceneId }, ctx)
      : Promise.resolve(null),
  ]);
  const crs = q.capture?.coordinateSystem;
  const height = run.reconstruction?.heightDatum;
  return {
    projectId,
    projectName: project.project?.name ?? projectId,
    quantitiesId: snapshot.id,
    runId: snapshot.runId,
    captureId: snapshot.captureId,
    measuredAt: snapshot.measuredAt,
    basis: snapshot.basis,
    regionVersion: snapshot.regionVersion,
    engine: run.engine,
    captureDate,
    quality: qualityOf(run.reconstruction),
    coordinateSystem: crs ? `${crs.name} (from ${crs.source})` : 'none stated by the file',
    datum: crs?.datum?.statement ?? 'No coordinate system stated: positions are in the capture’s own frame.',
    horizontalUnit: unitName(q.capture?.horizontalUnit),
    verticalUnit: unitName(q.capture?.verticalUnit),
    heightDatum: height ? `${height.name}: ${height.description}` : '',
    confidence: q.errorModel?.confidence ?? 0.95,
    regions: q.regions.map((region) => regionOf(region, stated)),
    rollup: figuresOf(q.rollup),
    disclosures: q.disclosures,
    scene,
    snapshot,
  };
}
