// The generated gRPC contracts (from proto/ by `npm run gen`; never edited by hand).
export * as common from './gen/fieldops/common/v1/common.js';
export * as crm from './gen/fieldops/crm/v1/crm.js';
export * as audit from './gen/fieldops/audit/v1/audit.js';
