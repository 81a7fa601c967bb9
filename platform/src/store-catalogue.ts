// Every service's store and the collections it declares: the list the index migration
// (store-migrate.ts) builds on MongoDB. Each entry is the constant the service's own define…
// function defines, so a collection added to a service is migrated without touching this file;
// a new store (a new openServiceStore name) is added here, and store-catalogue.test.ts checks
// that every name the processes open is listed.
import { AUDIT_COLLECTIONS } from '@fieldops/audit/ledger';
import { CAPTURE_COLLECTIONS } from '@fieldops/capture/collections';
import { CRM_COLLECTIONS } from '@fieldops/crm/collections';
import { EXPORT_COLLECTIONS } from '@fieldops/exports/collections';
import { IDENTITY_COLLECTIONS, CHANGE_FEED_COLLECTIONS } from '@fieldops/gateway/collections';
import type { CollectionSpec } from '@fieldops/kit/store';
import { MEASUREMENT_COLLECTIONS } from '@fieldops/measurements/collections';
import { PROJECTS_COLLECTIONS } from '@fieldops/projects/collections';
import { PLANNING_COLLECTIONS } from '@fieldops/projects/planning.collections';
import { WEBHOOK_COLLECTIONS } from '@fieldops/webhooks/collections';

/** Store name (openServiceStore's `service`, hence the database `<base>_<store>`) → its collections. */
export const STORE_CATALOGUE: Readonly<Record<string, readonly CollectionSpec[]>> = {
  gateway: IDENTITY_COLLECTIONS,
  sync: CHANGE_FEED_COLLECTIONS,
  audit: AUDIT_COLLECTIONS,
  capture: CAPTURE_COLLECTIONS,
  crm: CRM_COLLECTIONS,
  exports: EXPORT_COLLECTIONS,
  measurements: MEASUREMENT_COLLECTIONS,
  projects: [...PROJECTS_COLLECTIONS, ...PLANNING_COLLECTIONS],
  webhooks: WEBHOOK_COLLECTIONS,
};
