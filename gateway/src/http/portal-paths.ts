// The portal's public URLs that other parts print: a project's deliverable manifest (the registry's
// project read) links each artifact to the portal route that serves it to a browser session. Kept
// here, below both, so the registry names the route without importing the portal's router.
export const PORTAL_PROJECTS_ROUTE = '/api/portal/projects';

/** The portal URL of one artifact of a project, as deliverable manifests carry it. */
export const portalArtifactPath = (projectId: string, artifactId: string): string =>
  `${PORTAL_PROJECTS_ROUTE}/${encodeURIComponent(projectId)}/artifacts/${encodeURIComponent(artifactId)}`;
