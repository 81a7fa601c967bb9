// Deliverable files in the portal, at /api/portal/projects/:projectId/artifacts/:artifactId. The
// project read's deliverable manifests link here (spec: their hrefs are browser-session URLs that
// cannot be fetched with a token). A member signed in whose role reads deliverables is redirected
// to the artifact's short-lived download link; a bearer token is refused before anything is read.
import { callUnary } from '@fieldops/kit/grpc';
import express from 'express';
import type { Router } from 'express';
import type { ServiceClients } from '../clients.ts';
import { authenticateSession } from '../identity/authenticate.ts';
import { assertAuthorized } from '../identity/authorize.ts';
import type { Identity } from '../identity/index.ts';
import { refuseCrossSiteWrites, refuseHeaderCredentials } from '../identity/portal-guards.ts';
import { readSessionCookie } from '../identity/session-cookie.ts';
import { sessionContext } from './session-context.ts';

const READ_DELIVERABLE = { action: 'read', kind: 'deliverable' } as const;

export function createDeliverablesRouter(identity: Identity, clients: ServiceClients): Router {
  const router = express.Router();
  router.use(refuseHeaderCredentials, refuseCrossSiteWrites);

  router.get('/:projectId/artifacts/:artifactId', async (req, res) => {
    const caller = await authenticateSession(identity, readSessionCookie(req));
    assertAuthorized(caller, READ_DELIVERABLE);
    const { projectId, artifactId } = req.params as { projectId: string; artifactId: string };
    const ctx = sessionContext(caller, res, 'getArtifact');
    // Capture answers not_found for an artifact of another project or tenant.
    const artifact = await callUnary(clients.capture, 'getArtifact', { projectId, artifactId }, ctx);
    res.set('cache-control', 'no-store').redirect(302, artifact.href);
  });
  return router;
}
