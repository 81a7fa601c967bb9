// What every GET /projects/:id/<deliverables> page shares (scenes, designs, takeoffs): a read of
// one project's deliverables, scoped by that project, taking the page and nothing else. Each
// declaring file writes its own path (checked to lie under /projects/:id), words and handler.
import { z } from 'zod';
import { idParams, pageQuery, pageResponse } from './common.schemas.ts';

export function deliverablePageEndpoint(path: string, tag: string, item: z.ZodType) {
  if (!/^\/projects\/:id\/[a-z-]+$/.test(path)) throw new Error(`${path} is not a page of /projects/:id.`);
  return {
    method: 'GET' as const,
    path,
    tag,
    auth: 'scope' as const,
    scope: { action: 'read' as const, kind: 'deliverable' as const },
    params: idParams,
    projectParam: 'id',
    list: true,
    query: z.strictObject({ ...pageQuery }),
    response: pageResponse(item),
  };
}
