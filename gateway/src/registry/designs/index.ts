// Designs (ENDPOINTS row 71, seal; spec "Operations named but with their shape left open" 3).
// Served by capture.CaptureService. A design is drawn work on a project (a solar layout, a site
// plan, a survey design), recorded as a draft; sealing it is binding, so it goes through the
// two-phase confirmation, and a sealed design never changes. Create, list and read are beyond
// the 88 rows: a seal needs something to seal (docs/decisions.md, Designs).
// Every endpoint of the group, in registry order: one file per path, named after it.
import { createDesign, listDesigns } from './projects.id.designs.js';
import { getDesign } from './projects.id.designs.designId.js';
import { sealDesign } from './projects.id.designs.designId.seal.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const designEndpoints: EndpointDef[] = [createDesign, listDesigns, getDesign, sealDesign];
