// Designs (ENDPOINTS row 71, seal; spec "Operations named but with their shape left open" 3).
// Served by capture.CaptureService. A design is drawn work on a project (a solar layout, a site
// plan, a survey design), recorded as a draft; sealing it is binding, so it goes through the
// two-phase confirmation, and a sealed design never changes. Create, list and read are beyond
// the 88 rows: a seal needs something to seal (docs/decisions.md, Designs).
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { DESIGN_FIELD_LIMITS, ID_REF_MAX, DESIGN_STATUS_MACHINE } from '@fieldops/contracts';
import type { capture } from '@fieldops/proto';
import { z } from 'zod';
import { writeResult } from '../../endpoint/write-result.ts';

export const id = z.string().min(1).max(ID_REF_MAX);
export const projectParams = z.strictObject({ id });
export const designParams = z.strictObject({ id, designId: id });
export const notes = z.string().max(DESIGN_FIELD_LIMITS.notes);
export const machine = { field: 'status', moves: DESIGN_STATUS_MACHINE.moves };

// The response shape is derived from capture.proto (npm run gen).
export { designSchema } from './designs.gen.ts';

export const designWrite = (write: capture.DesignWrite) => writeResult('design', write.design, write.meta);
