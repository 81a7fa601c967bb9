// The latest scene's picture for a client page: its point-cloud artifacts fetched through their
// short-lived download links (the same links a deliverable opens, so this works on the embedded
// store and on S3 alike), rendered by site-image.ts with the measured regions outlined from the
// outlines stored with the quantities snapshot (drawn, or derived for the whole capture). A
// snapshot recorded before outlines were stored has none: the page lists its regions without one
// and says so (docs/decisions.md).
import type { RequestContext } from '@fieldops/kit';
import { callUnary } from '@fieldops/kit/grpc';
import { bufferSource, type ByteSource } from '@fieldops/measure-engine';
import type { capture, measurements } from '@fieldops/proto';
import type { ServiceClients } from '../clients.ts';
import { renderSiteImage, type Outline, type SiteImage } from './site-image.ts';

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

/** Stored polygons in metres, in the order of the snapshot's regions; null where none is stored. */
export const outlinesOf = (regions: readonly measurements.RegionQuantities[]): (Outline | null)[] =>
  regions.map((region) =>
    region.outline.length >= 3 ? region.outline.map((v) => [v.x, v.y] as const) : null,
  );

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
  const outlines = outlinesOf(regions);
  const b = scene.bounds!;
  return renderSiteImage(
    sources,
    { minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY },
    Number(scene.pointCount),
    outlines,
  );
}
