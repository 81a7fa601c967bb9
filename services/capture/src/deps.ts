// What the capture domain runs on: its store, the blob store, the projects service and the
// operator's settings. Domain code depends on these ports, never on adapters.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { DocumentStore } from '@fieldops/kit/store';
import type { ProjectsPort } from '@fieldops/projects/client';
import type { CaptureSettings } from './settings.ts';

export interface CaptureDeps {
  store: DocumentStore;
  blobs: BlobStore;
  projects: ProjectsPort;
  settings: CaptureSettings;
}
