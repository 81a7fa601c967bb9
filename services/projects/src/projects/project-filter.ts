// The filter of GET /projects: exact status, vertical and customer, updatedSince as a range on
// updatedAt, and q as a case-insensitive substring of the name, customer name or site address.
import { AppError } from '@fieldops/kit';
import { cleanText } from '@fieldops/kit/domain';
import type { Filter } from '@fieldops/kit/store';
import type { projects } from '@fieldops/proto';

/** Spec: q takes up to 200 characters. */
export const Q_MAX_LENGTH = 200;

export function projectFilter(req: projects.ListProjectsRequest): Filter {
  const filter: Filter = {};
  if (req.status) filter['status'] = req.status;
  if (req.vertical) filter['vertical'] = req.vertical;
  if (req.customerId) filter['customerId'] = req.customerId;
  // A project-restricted token sees its own projects only (an empty list sees none).
  if (req.scope) filter['id'] = { $in: [...req.scope.ids] };
  if (req.updatedSince) filter['updatedAt'] = { $gte: instantOf(req.updatedSince) };
  const q = cleanText(req.q);
  if (q) {
    if (q.length > Q_MAX_LENGTH) {
      throw new AppError('field_invalid', `q takes up to ${Q_MAX_LENGTH} characters.`, { field: 'q' });
    }
    filter.$or = ['name', 'customerName', 'siteAddress'].map((field) => ({ [field]: { $contains: q } }));
  }
  return filter;
}

/** Stored timestamps are UTC ISO strings, so an offset date-time is compared in that form. */
function instantOf(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time) || !/T/.test(value)) {
    throw new AppError(
      'field_invalid',
      'updatedSince must be an ISO 8601 date-time such as 2026-01-31T09:00:00Z.',
      {
        field: 'updatedSince',
      },
    );
  }
  return new Date(time).toISOString();
}
