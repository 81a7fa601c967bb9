// FIELDOPS_GRPC_DEADLINE_MS is what every gRPC client of the gateway and of projects calls with: the
// gateway's client of each service, projects' crm client, and the projects client capture and
// measurements use. A process's configuration sets connectClient's default once
// (setProcessGrpcDeadline, called by the process runner and by the one-process platform); here it
// is set from a loaded configuration, each client is connected as its process connects it, and one
// call of each goes to a server that answers after 4 s. Configured for 1 s, every call gives up
// first; for 12 s, every call gets the answer. The exports packager's and the capture worker's
// clients are shown in their own services' tests (their factories are not package faces).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client, ServiceDefinition } from '@grpc/grpc-js';
import { connectServiceClients, type ServiceAddresses } from '@fieldops/gateway';
import { loadConfig, type RequestContext } from '@fieldops/kit';
import { callUnary, setProcessGrpcDeadline } from '@fieldops/kit/grpc';
import { outcomeOf, startSlowGrpcServer, testContext, type SlowGrpcServer } from '@fieldops/kit/testing';
import { connectGrpcCrm } from '@fieldops/projects';
import { connectGrpcProjects } from '@fieldops/projects/client';
import {
  audit,
  billing,
  bookings,
  capture,
  crm,
  deals,
  measurements,
  planning,
  projects,
  tenantExports,
  webhooks,
} from '@fieldops/proto';

const ANSWER_AFTER_MS = 4_000;
const ctx: RequestContext = testContext();

let server: SlowGrpcServer;

beforeAll(async () => {
  server = await startSlowGrpcServer(
    [
      crm.CrmServiceService,
      audit.AuditServiceService,
      deals.DealServiceService,
      bookings.BookingServiceService,
      billing.ProposalServiceService,
      billing.InvoiceServiceService,
      projects.ProjectServiceService,
      projects.ProjectRecordServiceService,
      projects.ClientPageServiceService,
      planning.PlanningServiceService,
      capture.CaptureServiceService,
      measurements.MeasurementServiceService,
      webhooks.WebhookServiceService,
      tenantExports.ExportServiceService,
      tenantExports.ReportServiceService,
    ],
    ANSWER_AFTER_MS,
  );
});
afterAll(async () => {
  setProcessGrpcDeadline(loadConfig({}).grpcDeadlineMs);
  await server?.stop();
});

/** The first method of a generated client's service, called with its default (empty) request. */
function firstCall(client: Client): Promise<unknown> {
  const definition = (client.constructor as unknown as { service: ServiceDefinition }).service;
  const [name, method] = Object.entries(definition)[0]!;
  const request: unknown = method.requestDeserialize(Buffer.alloc(0));
  return callUnary(client as never, name as never, request as never, ctx);
}

/** One call through every client, each connected after the process's deadline was set from `env`. */
async function outcomesWith(env: Record<string, string>): Promise<Record<string, string>> {
  setProcessGrpcDeadline(loadConfig(env).grpcDeadlineMs);
  const addresses = Object.fromEntries(
    ['crm', 'audit', 'projects', 'webhooks', 'capture', 'measurements', 'exports'].map((s) => [
      s,
      server.address,
    ]),
  ) as unknown as ServiceAddresses;
  const gateway = connectServiceClients(addresses);
  const crmPort = connectGrpcCrm(server.address);
  const projectsPort = connectGrpcProjects(server.address);
  try {
    const { ready: _ready, close: _close, ...clients } = gateway;
    const calls: [string, Promise<unknown>][] = [
      ...Object.entries(clients).map(([name, client]): [string, Promise<unknown>] => [
        `gateway → ${name}`,
        firstCall(client),
      ]),
      ['projects → crm', crmPort.customerName('cus_1', ctx)],
      ['capture, measurements → projects', projectsPort.requireProject('prj_1', ctx)],
    ];
    const outcomes = await Promise.all(calls.map(([, call]) => outcomeOf(call)));
    return Object.fromEntries(calls.map(([name], n) => [name, outcomes[n]!]));
  } finally {
    gateway.close();
    crmPort.close();
    projectsPort.close();
  }
}

describe('the configured gRPC deadline', () => {
  it('is what every client of the gateway and of projects calls with', async () => {
    const short = await outcomesWith({
      FIELDOPS_GRPC_DEADLINE_MS: '1000',
      FIELDOPS_MONGODB_OPERATION_TIMEOUT_MS: '500',
    });
    const long = await outcomesWith({ FIELDOPS_GRPC_DEADLINE_MS: '12000' });
    // The gateway has a client for each of its 15 services, all of them called here.
    expect(Object.keys(short)).toHaveLength(17);
    expect(new Set(Object.values(short))).toEqual(new Set(['deadline exceeded']));
    expect(new Set(Object.values(long))).toEqual(new Set(['answered']));
  });
});
