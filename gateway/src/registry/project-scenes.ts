// The scenes half of the single project read. The projects service owns the project; its scenes
// are the capture service's (each reconstruction run's output), so the gateway asks capture over
// gRPC and shows them in the project's shape: artifact ids and the formats each can be exported to.
import type { RequestContext } from '@fieldops/kit/context';
import { callUnary } from '@fieldops/kit/grpc/client';
import type { ServiceClients } from '../clients.js';

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

export async function projectScenes(
  clients: ServiceClients,
  projectId: string,
  ctx: RequestContext,
): Promise<ProjectScene[]> {
  const page = await callUnary(
    clients.capture,
    'listScenes',
    { projectId, page: { cursor: '', limit: PROJECT_SCENES_SHOWN } },
    ctx,
  );
  return page.items.map((scene) => ({
    id: scene.id,
    name: scene.sceneTag || scene.kind,
    status: 'ready',
    artifactIds: scene.artifacts.map((artifact) => artifact.id),
    exportFormats: scene.exportFormats,
  }));
}
