// A project (job) as stored, and the shapes the API shows: the full project and the lean summary
// of lists. The site is its own document (sites.model.ts); the project carries a copy of its
// address and geo so lists and search never join.
import type { ProjectStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';

export interface GeoPoint {
  lat: number;
  lng: number;
}

/**
 * What capture (issue 5) has produced for the project, kept as counts so the rules that depend
 * on it (vertical changes, deliverable_shipped) read one document. Zero until capture reports.
 */
export interface ProjectContent {
  designs: number;
  deliverables: number;
  packagedDeliverables: number;
}

export const EMPTY_CONTENT: ProjectContent = { designs: 0, deliverables: 0, packagedDeliverables: 0 };

export interface ProjectDoc extends Doc {
  customerId: string;
  /** The customer's name as crm had it when the project was created or last amended. */
  customerName: string;
  /**
   * The customer's version in crm that customerName was taken from (at creation or by the last
   * rename applied); a rename event not newer than it is a no-op. Absent on projects made before.
   */
  customerVersion?: number;
  name: string;
  siteId: string;
  siteAddress?: string;
  geo?: GeoPoint;
  accessNotes?: string;
  vertical: string;
  ownerName?: string;
  ownerId?: string;
  status: ProjectStatus;
  /** The deal opened with the project (crm's DealService). */
  dealId: string;
  content: ProjectContent;
  createdAt: string;
  updatedAt: string;
  statusChangedAt: string;
  opId?: string;
}

/** Fields whose changes are reported (rehearsal effects, events). */
export const PROJECT_CHANGE_FIELDS = [
  'customerId',
  'customerName',
  'name',
  'siteAddress',
  'accessNotes',
  'vertical',
  'ownerName',
  'ownerId',
  'status',
  'dealId',
] as const satisfies readonly (keyof ProjectDoc & string)[];

/** Fields PATCH /projects/:id may change (spec); money and status never. */
export const PROJECT_AMENDABLE_FIELDS = [
  'name',
  'ownerId',
  'siteAddress',
  'geo',
  'accessNotes',
  'vertical',
] as const satisfies readonly (keyof ProjectDoc & string)[];

/** Whether the project holds design or delivery work that was made for its vertical. */
export const hasDesignOrDeliveryContent = (doc: Pick<ProjectDoc, 'content'>): boolean =>
  doc.content.designs > 0 || doc.content.deliverables > 0;
