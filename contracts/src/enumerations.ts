// Closed lists of values a request may carry that both the gateway (zod enums, so OpenAPI states
// them) and the owning service (its own check of a direct gRPC call) read: one home for each.

/** The lists a saved report's figure can be computed over (services/exports, POST /reports). */
export const REPORT_RESOURCES = [
  'leads',
  'customers',
  'deals',
  'proposals',
  'invoices',
  'bookings',
  'projects',
] as const;
export type ReportResource = (typeof REPORT_RESOURCES)[number];

/** How a report figure folds its list (count of items, or sum / average of a numeric field). */
export const REPORT_MEASURES = ['count', 'sum', 'average'] as const;
export type ReportMeasure = (typeof REPORT_MEASURES)[number];

/**
 * How a task depends on its predecessor (services/projects' schedule network): finish-to-start,
 * start-to-start, finish-to-finish, start-to-finish.
 */
export const DEPENDENCY_TYPES = ['FS', 'SS', 'FF', 'SF'] as const;
export type DependencyType = (typeof DEPENDENCY_TYPES)[number];
