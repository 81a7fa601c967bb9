// Finding a record the way every record call names it: project, record id and kind. A record of
// another project or another kind is not found, so ids never leak across projects or kinds.
import type { RecordKind } from '@fieldops/contracts';
import { notFound } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { PROJECT_RECORDS } from '../collections.ts';
import { loadProject } from '../projects/projects.service.ts';
import type { RecordDoc } from './record.model.ts';

export async function loadRecord(
  store: DocumentStore,
  tenantId: string,
  where: { projectId: string; id: string; kind: RecordKind },
): Promise<RecordDoc> {
  await loadProject(store, tenantId, where.projectId);
  const doc = await store.get<RecordDoc>(PROJECT_RECORDS, tenantId, where.id);
  if (!doc || doc.projectId !== where.projectId || doc.kind !== where.kind) {
    throw notFound(`${where.kind} record`, where.id);
  }
  return doc;
}
