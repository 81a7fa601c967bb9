// A site: the place a project's work happens. Created with the project (spec: creating a project
// also creates its site); the project's siteAddress, geo and accessNotes are kept in step with it.
import { compact, type Complete } from '@fieldops/kit/domain';
import type { Doc } from '@fieldops/kit/store';
import type { projects } from '@fieldops/proto';
import type { GeoPoint } from './project.model.ts';

export interface SiteDoc extends Doc {
  customerId: string;
  projectId: string;
  address?: string;
  geo?: GeoPoint;
  accessNotes?: string;
  createdAt: string;
  updatedAt: string;
}

export const SITE_CHANGE_FIELDS = [
  'customerId',
  'projectId',
  'address',
  'accessNotes',
] as const satisfies readonly (keyof SiteDoc & string)[];

export function toSiteView(doc: SiteDoc): projects.Site {
  return compact({
    id: doc.id,
    customerId: doc.customerId,
    projectId: doc.projectId,
    address: doc.address,
    geo: doc.geo,
    accessNotes: doc.accessNotes,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  } satisfies Complete<projects.Site>);
}
