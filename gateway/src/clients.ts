// The gateway's only way to reach the services: one gRPC client each (ARCHITECTURE §2).
import {
  audit,
  crm,
  deals,
  bookings,
  billing,
  projects,
  planning,
  webhooks,
  capture,
  measurements,
  tenantExports,
} from '@fieldops/proto';
import { connectClient } from '@fieldops/kit/grpc';

export interface ServiceAddresses {
  crm: string;
  audit: string;
  projects: string;
  webhooks: string;
  capture: string;
  measurements: string;
  exports: string;
}

export interface ServiceClients {
  crm: crm.CrmServiceClient;
  audit: audit.AuditServiceClient;
  /** The deal pipeline, served by the crm process beside CrmService (same address). */
  deals: deals.DealServiceClient;
  /** Bookings and the instant-book policy, served by the crm process (same address). */
  bookings: bookings.BookingServiceClient;
  /** Proposals (crm process, same address). */
  proposals: billing.ProposalServiceClient;
  /** Invoices (crm process, same address). */
  invoices: billing.InvoiceServiceClient;
  /** Projects (jobs) and their lifecycle (projects service). */
  projects: projects.ProjectServiceClient;
  /** Project records, served by the projects process beside ProjectService (same address). */
  records: projects.ProjectRecordServiceClient;
  /** Client pages (projects process, same address). */
  clientPages: projects.ClientPageServiceClient;
  /** Schedule, compliance, permits, tasks, day view, templates, geocoding (projects process). */
  planning: planning.PlanningServiceClient;
  /** Capture sessions and reconstruction runs (capture service). */
  capture: capture.CaptureServiceClient;
  /** Quantities, takeoffs and deltas (measurements service). */
  measurements: measurements.MeasurementServiceClient;
  /** Webhook subscriptions, deliveries and the event-type catalogue (webhooks service). */
  webhooks: webhooks.WebhookServiceClient;
  /** Tenant exports (exports service). */
  exports: tenantExports.ExportServiceClient;
  /** Saved reports (exports process, same address). */
  reports: tenantExports.ReportServiceClient;
  /** True when every service's channel connects within a moment (readiness for /healthz). */
  ready(): Promise<boolean>;
  close(): void;
}

const READY_WAIT_MS = 500;

function channelReady(client: { waitForReady(deadline: Date, callback: (error?: Error) => void): void }) {
  return new Promise<boolean>((resolve) =>
    client.waitForReady(new Date(Date.now() + READY_WAIT_MS), (error) => resolve(!error)),
  );
}

export function connectServiceClients(addresses: ServiceAddresses): ServiceClients {
  const clients = {
    crm: connectClient(crm.CrmServiceClient, addresses.crm),
    audit: connectClient(audit.AuditServiceClient, addresses.audit),
    projects: connectClient(projects.ProjectServiceClient, addresses.projects),
    records: connectClient(projects.ProjectRecordServiceClient, addresses.projects),
    clientPages: connectClient(projects.ClientPageServiceClient, addresses.projects),
    planning: connectClient(planning.PlanningServiceClient, addresses.projects),
    bookings: connectClient(bookings.BookingServiceClient, addresses.crm),
    deals: connectClient(deals.DealServiceClient, addresses.crm),
    proposals: connectClient(billing.ProposalServiceClient, addresses.crm),
    invoices: connectClient(billing.InvoiceServiceClient, addresses.crm),
    webhooks: connectClient(webhooks.WebhookServiceClient, addresses.webhooks),
    capture: connectClient(capture.CaptureServiceClient, addresses.capture),
    measurements: connectClient(measurements.MeasurementServiceClient, addresses.measurements),
    exports: connectClient(tenantExports.ExportServiceClient, addresses.exports),
    reports: connectClient(tenantExports.ReportServiceClient, addresses.exports),
  };
  return {
    ...clients,
    ready: async () => (await Promise.all(Object.values(clients).map(channelReady))).every(Boolean),
    close: () => Object.values(clients).forEach((client) => client.close()),
  };
}
