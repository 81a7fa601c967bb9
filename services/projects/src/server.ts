// The projects gRPC server: the ProjectService RPCs over the store projects owns. crm is reached
// over gRPC (customer names, the deal a project opens), never through its collections.
import { bindDomain, listenOf, startGrpcServer, type GrpcListen, type GrpcServer } from '@fieldops/kit/grpc';
import type { EventLog } from '@fieldops/kit/events';
import type { DocumentStore } from '@fieldops/kit/store';
import { planning, projects } from '@fieldops/proto';
import { pageLinkTtlFromEnv } from './client-pages/page-link-ttl.ts';
import { connectGrpcCrm } from './customers/crm.grpc.ts';
import { startCustomerNameProjection } from './customers/customer-names.projection.ts';
import { createRecordHandlers, openClientPageHandlers } from './handlers.ts';
import { openProjectsDomain } from './index.ts';
import { openPlanningDomain } from './planning.handlers.ts';
import { tenantDumpBinding } from '@fieldops/kit/domain';
import { PROJECTS_COLLECTIONS } from './collections.ts';
import { PLANNING_COLLECTIONS } from './planning.collections.ts';

export async function startProjectsServer(
  options: GrpcListen & {
    store: DocumentStore;
    /** host:port of crm's gRPC server. */
    crmAddress: string;
    /** The event log: customer renames in crm reach the projects' customerName through it. */
    log?: EventLog;
  },
): Promise<GrpcServer> {
  const linkTtlMs = pageLinkTtlFromEnv();
  const crm = connectGrpcCrm(options.crmAddress);
  const handlers = await openProjectsDomain({ store: options.store, crm });
  const pages = await openClientPageHandlers(options.store, crm, { linkTtlMs });
  const planningHandlers = await openPlanningDomain(options.store);
  const server = await startGrpcServer({
    ...listenOf(options),
    services: [
      bindDomain(projects.ProjectServiceService, handlers),
      bindDomain(projects.ProjectRecordServiceService, createRecordHandlers(options.store)),
      bindDomain(projects.ClientPageServiceService, pages),
      bindDomain(planning.PlanningServiceService, planningHandlers),
      tenantDumpBinding('projects', options.store, [...PROJECTS_COLLECTIONS, ...PLANNING_COLLECTIONS]),
    ],
  });
  const renames = options.log ? await startCustomerNameProjection(options.log, options.store) : undefined;
  return {
    ...server,
    stop: async () => {
      await renames?.stop();
      await server.stop();
      crm.close();
    },
  };
}
