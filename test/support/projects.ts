// Helpers for the projects HTTP tests: a customer to attach projects to, a project created through
// the API, and capture's content report, sent over gRPC exactly as capture (issue 5) will send it.
import { systemContext } from '@fieldops/kit';
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import { projects } from '@fieldops/proto';
import type { Body, Client, TestPlatform } from './harness.ts';

export type ProjectBody = Body & {
  id: string;
  etag: string;
  status: string;
  vertical: string;
  customerName: string;
  dealId: string;
  siteId: string;
  legalTriggers: string[];
};

export async function newCustomer(api: Client, name = 'Acme Quarry Ltd'): Promise<string> {
  const reply = await api.post('/customers', { name });
  if (reply.status !== 201) throw new Error(`customer create failed: ${JSON.stringify(reply.body)}`);
  return (reply.body.customer as { id: string }).id;
}

export async function newProject(api: Client, customerId: string, fields: Body = {}): Promise<ProjectBody> {
  const reply = await api.post('/projects', { customerId, customerName: 'Acme', ...fields });
  if (reply.status !== 201) throw new Error(`project create failed: ${JSON.stringify(reply.body)}`);
  return reply.body.project as ProjectBody;
}

/** Reports what capture holds for a project (designs, deliverables, packaged ones). */
export async function reportContent(
  platform: TestPlatform,
  tenantId: string,
  projectId: string,
  content: { designs?: number; deliverables?: number; packagedDeliverables?: number },
): Promise<void> {
  const client = connectClient(projects.ProjectServiceClient, platform.serviceAddress('projects'));
  try {
    await callUnary(
      client,
      'reportProjectContent',
      { id: projectId, designs: 0, deliverables: 0, packagedDeliverables: 0, ...content },
      systemContext({ id: tenantId, currency: 'USD', defaultVertical: 'survey' }, 'reportProjectContent'),
    );
  } finally {
    client.close();
  }
}
