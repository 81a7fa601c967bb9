// The latest scene's picture for a client page: its point-cloud artifacts fetched through their
// short-lived download links (the same links a deliverable opens, so this works on the embedded
// store and on S3 alike), rendered by site-image.ts with the measured regions outlined. A region
// is outlined where its polygon is known: the whole-site region the capture worker measures is
// recomputed from the cloud itself (wholeSiteRegion); a region drawn for MeasureCapture keeps no
// polygon in its snapshot, so the page lists it without an outline (docs/decisions.md).
import type { RequestContext } from '@fieldops/kit/context';
import { callUnary } from '@fieldops/kit/grpc/client';
import {
  WHOLE_SITE_REGION_ID,
  bufferSource,
  openPointCloud,
  wholeSiteRegion,
  type ByteSource,
} from '@fieldops/measure-engine';
import type { capture, measurements } from '@fieldops/proto';
import type { ServiceClients } from '../clients.js';
import { renderSiteImage, type Outline, type SiteImage } from './site-image.js';

/** Clouds larger than this in total are not pictured (the page says so). */
export const PICTURE_MAX_BYTES = 128 * 1024 * 1024;
const CLOUD_NAME = /\.(ply|las|laz)$/i;

const isCloud = (artifact: capture.SceneArtifact): boolean =>
  CLOUD_NAME.test(artifact.name) || /ply|las/i.test(artifact.contentType);

export const canPicture = (scene: capture.Scene): boolean => {
  const clouds = scene.artifacts.filter(isCloud);
  return (
    Boolean(scene.bounds) &&
    clouds.length > 0 &&
    clouds.reduce((sum, artifact) => sum + artifact.size, 0) <= PICTURE_MAX_BYTES
  );
};

async function fetchCloud(
  clients: ServiceClients,
  scene: capture.Scene,
  artifact: capture.SceneArtifact,
  ctx: RequestContext,
): Promise<ByteSource> {
  const link = await callUnary(
    clients.capture,
    'getArtifact',
    { projectId: scene.projectId, artifactId: artifact.id },
    ctx,
  );
  const res = await fetch(link.href);
  if (!res.ok) throw new Error(`artifact ${artifact.id} answered ${res.status}`);
  return bufferSource(new Uint8Array(await res.arrayBuffer()), artifact.name);
}

/** Polygons in metres, in the order of the snapshot's regions; null where none is known. */
async function outlinesOf(
  sources: readonly ByteSource[],
  regions: readonly measurements.RegionQuantities[],
): Promise<(Outline | null)[]> {
  if (!regions.some((region) => region.regionId === WHOLE_SITE_REGION_ID)) return regions.map(() => null);
  const metres = (await openPointCloud(sources[0]!)).header.horizontalUnit.metres;
  const whole = (await wholeSiteRegion(sources)).polygon.map(([x, y]) => [x * metres, y * metres] as const);
  return regions.map((region) => (region.regionId === WHOLE_SITE_REGION_ID ? whole : null));
}

export async function scenePicture(
  clients: ServiceClients,
  scene: capture.Scene,
  quantities: measurements.QuantitiesSnapshot | null,
  ctx: RequestContext,
): Promise<SiteImage> {
  const sources = await Promise.all(
    scene.artifacts.filter(isCloud).map((artifact) => fetchCloud(clients, scene, artifact, ctx)),
  );
  const regions = quantities?.quantities?.regions ?? [];
  const outlines = await outlinesOf(sources, regions);
  const b = scene.bounds!;
  return renderSiteImage(
    sources,
    { minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY },
    Number(scene.pointCount),
    outlines,
  );
}
