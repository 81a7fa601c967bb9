// The generated gRPC contracts (from proto/ by `npm run gen`; never edited by hand).
export * as common from './gen/fieldops/common/v1/common.js';
export * as crm from './gen/fieldops/crm/v1/crm.js';
export * as audit from './gen/fieldops/audit/v1/audit.js';
export * as deals from './gen/fieldops/crm/v1/deals.js';
export * as billing from './gen/fieldops/crm/v1/billing.js';
export * as bookings from './gen/fieldops/crm/v1/bookings.js';
export * as projects from './gen/fieldops/projects/v1/projects.js';
export * as planning from './gen/fieldops/projects/v1/planning.js';
export * as measurements from './gen/fieldops/measurements/v1/measurements.js';
export * as capture from './gen/fieldops/capture/v1/capture.js';
export * as runLeases from './gen/fieldops/capture/v1/run_leases.js';
export * as webhooks from './gen/fieldops/webhooks/v1/webhooks.js';
export * as tenantExports from './gen/fieldops/exports/v1/exports.js';
