// Capture sessions and reconstruction runs (spec: Capture session, the capture and process
// endpoints; ENDPOINTS rows 33–36, 72, 73). Served by capture.CaptureService. Field values and
// manifest limits are data in contracts/src/capture.ts, stated here in the OpenAPI document.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { presignCapture } from './projects.id.capture.presign.js';
import { finalizeCapture } from './projects.id.capture.sessionId.finalize.js';
import { abortCapture } from './projects.id.capture.sessionId.abort.js';
import { processProject } from './projects.id.process.js';
import { getCapture } from './projects.id.capture.sessionId.js';
import { getRun } from './projects.id.runs.runId.js';
import { listScenes } from './projects.id.scenes.js';
import { getScene } from './projects.id.scenes.sceneId.js';
import { getSceneGeometry } from './projects.id.scenes.sceneId.geometry.js';
import { getArtifact } from './projects.id.artifacts.artifactId.js';
import { listExportFormats } from './projects.id.export-formats.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const captureEndpoints: EndpointDef[] = [
  presignCapture,
  finalizeCapture,
  abortCapture,
  processProject,
  getCapture,
  getRun,
  listScenes,
  getScene,
  getSceneGeometry,
  getArtifact,
  listExportFormats,
];
