// How a project is shown: the full record (single read, writes) and the lean list summary.
import { PROJECT_LIFECYCLE_MACHINE } from '@fieldops/contracts';
import { etagOf, compact, type Complete } from '@fieldops/kit/domain';
import type { projects } from '@fieldops/proto';
import type { ProjectDoc } from './project.model.ts';

export function toProjectView(doc: ProjectDoc): projects.Project {
  return compact({
    id: doc.id,
    customerId: doc.customerId,
    customerName: doc.customerName,
    name: doc.name,
    siteId: doc.siteId,
    siteAddress: doc.siteAddress,
    geo: doc.geo,
    accessNotes: doc.accessNotes,
    vertical: doc.vertical,
    ownerName: doc.ownerName,
    ownerId: doc.ownerId,
    status: doc.status,
    dealId: doc.dealId,
    etag: etagOf(doc),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    statusChangedAt: doc.statusChangedAt,
    opId: doc.opId,
    legalTriggers: PROJECT_LIFECYCLE_MACHINE.legalTriggers(doc.status),
  } satisfies Complete<projects.Project>);
}

export function toProjectSummary(doc: ProjectDoc): projects.ProjectSummary {
  return compact({
    id: doc.id,
    name: doc.name,
    status: doc.status,
    vertical: doc.vertical,
    customerId: doc.customerId,
    customerName: doc.customerName,
    siteId: doc.siteId,
    siteAddress: doc.siteAddress,
    updatedAt: doc.updatedAt,
  });
}
