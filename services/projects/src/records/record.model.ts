// A project record (punch item, RFI, incident, daily log, submittal, drawing, minutes) as stored
// and as the API shows it. Retraction is voidedAt, not a status: a voided record keeps its status.
import { nextRecordStatuses, RECORD_COMMON_FIELDS, type RecordKind } from '@fieldops/contracts';
import { etagOf, compact, type Complete } from '@fieldops/kit/domain';
import type { Doc } from '@fieldops/kit/store';
import type { projects } from '@fieldops/proto';

/** The descriptive fields a body may carry, by name (which ones a kind takes is in contracts). */
export interface RecordFields {
  title?: string;
  subject?: string;
  question?: string;
  description?: string;
  priority?: string;
  assignees?: string[];
  dueDate?: string;
  ballInCourt?: string;
  involvedParty?: string;
  number?: string;
  revision?: string;
}

export interface RecordDoc extends Doc, RecordFields {
  projectId: string;
  kind: RecordKind;
  status: string;
  voidedAt?: string;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

/** Fields whose changes are reported (rehearsal effects, events): the kinds' own, the common ones, the status. */
export const RECORD_CHANGE_FIELDS = [
  'title',
  'subject',
  'question',
  ...RECORD_COMMON_FIELDS,
  'number',
  'revision',
  'status',
  'voidedAt',
] as const satisfies readonly (keyof RecordDoc & string)[];

export function toRecordView(doc: RecordDoc): projects.ProjectRecord {
  return compact({
    id: doc.id,
    projectId: doc.projectId,
    kind: doc.kind,
    status: doc.status,
    title: doc.title,
    subject: doc.subject,
    question: doc.question,
    description: doc.description,
    priority: doc.priority,
    assignees: doc.assignees ?? [],
    dueDate: doc.dueDate,
    ballInCourt: doc.ballInCourt,
    involvedParty: doc.involvedParty,
    number: doc.number,
    revision: doc.revision,
    voidedAt: doc.voidedAt,
    etag: etagOf(doc),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    opId: doc.opId,
    nextStatuses: nextRecordStatuses(doc.kind, doc.status),
  } satisfies Complete<projects.ProjectRecord>);
}
