// The scenes and deliverables half of the single project read. The projects service owns the
// project; its scenes are the capture service's (each reconstruction run's output), so the gateway
// asks capture over gRPC and shows them in the project's shape: per scene its artifact ids and the
// formats it can be exported to, and per scene a deliverable manifest whose file hrefs are portal
// URLs (a browser session fetches them; a token cannot, spec "deliverable manifests").
import type { RequestContext } from '@fieldops/kit';
import { callUnary } from '@fieldops/kit/grpc';
import type { capture } from '@fieldops/proto';
import type { ServiceClients } from '../clients.ts';
import { portalArtifactPath } from '../http/portal-paths.ts';

/** The project read lists at most this many scenes (GET /projects/:id/scenes pages through all). */
export const PROJECT_SCENES_SHOWN = 100;

export interface ProjectScene {
  id: string;
  name: string;
  /** A scene exists only once its run finished, so every listed scene is ready to read. */
  status: 'ready';
  artifactIds: string[];
  exportFormats: string[];
}

export interface DeliverableManifest {
  id: string;
  name: string;
  /** A scene is committed only with its stored artifacts, so its deliverable is always packaged. */
  packaged: true;
  files: { name: string; href: string; contentType: string; size: number }[];
}

export async function projectSceneContent(
  clients: ServiceClients,
  projectId: string,
  ctx: RequestContext,
): Promise<{ scenes: ProjectScene[]; deliverables: DeliverableManifest[] }> {
  const page = await callUnary(
    clients.capture,
    'listScenes',
    { projectId, page: { cursor: '', limit: PROJECT_SCENES_SHOWN } },
    ctx,
  );
  return {
    scenes: page.items.map(sceneView),
    deliverables: page.items.map((scene) => manifestOf(projectId, scene)),
  };
}

const nameOf = (scene: capture.Scene): string => scene.sceneTag || scene.kind;

function sceneView(scene: capture.Scene): ProjectScene {
  return {
    id: scene.id,
    name: nameOf(scene),
    status: 'ready',
    artifactIds: scene.artifacts.map((artifact) => artifact.id),
    exportFormats: scene.exportFormats,
  };
}

function manifestOf(projectId: string, scene: capture.Scene): DeliverableManifest {
  return {
    id: scene.id,
    name: nameOf(scene),
    packaged: true,
    files: scene.artifacts.map((artifact) => ({
      name: artifact.name,
      href: portalArtifactPath(projectId, artifact.id),
      contentType: artifact.contentType,
      size: artifact.size,
    })),
  };
}
