// Scenes, their geometry, their artifacts (short-lived links a token can fetch) and the
// project's export formats: reads over what the reconstruction workers recorded.
import { NEWEST_FIRST } from '@fieldops/kit/domain';
import type { BlobKey } from '@fieldops/kit/blobs';
import type { RequestContext } from '@fieldops/kit';
import { requireTenantId } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import { ARTIFACTS, SCENES } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';
import { listOfProject, loadOfProject } from '../projects/project-docs.ts';
import type { ArtifactDoc, SceneDoc } from '../runs/run-lease.ts';
import { exportFormatsOf } from './export-formats.ts';

/** How long an artifact link lives: fetched right away; a fresh one is one call away. */
export const ARTIFACT_LINK_SECONDS = 5 * 60;

function toSceneView(doc: SceneDoc): capture.Scene {
  return {
    id: doc.id,
    projectId: doc.projectId,
    runId: doc.runId,
    captureId: doc.captureId,
    kind: doc.kind,
    pointCount: doc.pointCount,
    bounds: doc.bounds,
    formats: doc.formats,
    sceneTag: doc.sceneTag ?? '',
    artifacts: doc.artifacts.map((artifact) => ({
      id: artifact.id,
      name: artifact.name,
      contentType: artifact.contentType,
      size: artifact.size,
    })),
    exportFormats: exportFormatsOf(doc.formats).map((format) => format.id),
    createdAt: doc.createdAt,
    ...(doc.reconstruction ? { reconstruction: doc.reconstruction } : {}),
  };
}

async function loadScene(deps: CaptureDeps, ctx: RequestContext, ref: capture.SceneRef): Promise<SceneDoc> {
  return loadOfProject<SceneDoc>(deps, ctx, SCENES, { projectId: ref.projectId, id: ref.sceneId }, 'scene');
}

export const listScenes = (deps: CaptureDeps, req: capture.ListScenesRequest, ctx: RequestContext) =>
  listOfProject(deps, ctx, SCENES, req, toSceneView);

export const getScene = async (deps: CaptureDeps, req: capture.SceneRef, ctx: RequestContext) =>
  toSceneView(await loadScene(deps, ctx, req));

export async function getSceneGeometry(
  deps: CaptureDeps,
  req: capture.SceneRef,
  ctx: RequestContext,
): Promise<capture.SceneGeometry> {
  const scene = await loadScene(deps, ctx, req);
  return {
    sceneId: scene.id,
    kind: scene.kind,
    pointCount: scene.pointCount,
    bounds: scene.bounds,
    unit: 'm',
    artifactId: scene.artifacts[0]?.id ?? '',
  };
}

export async function getArtifact(
  deps: CaptureDeps,
  req: capture.ArtifactRef,
  ctx: RequestContext,
): Promise<capture.Artifact> {
  const ref = { projectId: req.projectId, id: req.artifactId };
  const doc = await loadOfProject<ArtifactDoc>(deps, ctx, ARTIFACTS, ref, 'artifact');
  const link = await deps.blobs.presignGet(doc.key as BlobKey, {
    expiresInSeconds: ARTIFACT_LINK_SECONDS,
    downloadName: doc.name || doc.key.split('/').at(-1) || 'artifact',
  });
  return {
    id: doc.id,
    projectId: doc.projectId,
    sceneId: doc.sceneId,
    name: doc.name,
    contentType: doc.contentType,
    size: doc.size,
    href: link.url,
    expiresAt: link.expiresAt,
  };
}

export async function listExportFormats(
  deps: CaptureDeps,
  req: capture.ProjectRef,
  ctx: RequestContext,
): Promise<capture.ExportFormatList> {
  await deps.projects.requireProject(req.projectId, ctx);
  const scenes = await deps.store.find<SceneDoc>(
    SCENES,
    requireTenantId(ctx),
    { projectId: req.projectId },
    {
      sort: NEWEST_FIRST,
      limit: 500,
    },
  );
  return { items: exportFormatsOf(scenes.flatMap((scene) => scene.formats)) };
}
