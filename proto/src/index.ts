// The generated gRPC contracts (from proto/ by `npm run gen`; never edited by hand).
export * as common from './gen/fieldops/common/v1/common.ts';
export * as crm from './gen/fieldops/crm/v1/crm.ts';
export * as audit from './gen/fieldops/audit/v1/audit.ts';
export * as deals from './gen/fieldops/crm/v1/deals.ts';
export * as billing from './gen/fieldops/crm/v1/billing.ts';
export * as bookings from './gen/fieldops/crm/v1/bookings.ts';
export * as projects from './gen/fieldops/projects/v1/projects.ts';
export * as planning from './gen/fieldops/projects/v1/planning.ts';
export * as measurements from './gen/fieldops/measurements/v1/measurements.ts';
export * as capture from './gen/fieldops/capture/v1/capture.ts';
export * as runLeases from './gen/fieldops/capture/v1/run_leases.ts';
export * as webhooks from './gen/fieldops/webhooks/v1/webhooks.ts';
export * as tenantExports from './gen/fieldops/exports/v1/exports.ts';
