// The request context of what a worker does for a run: the run's tenant and a system principal,
// the run id as request id so the logs of every service the run touches line up.
import { systemContext, type RequestContext } from '@fieldops/kit';

export interface RunTenant {
  id: string;
  tenantId: string;
  tenantCurrency: string;
  tenantDefaultVertical: string;
}

export const workerContext = (run: RunTenant, operation: string): RequestContext =>
  systemContext(
    { id: run.tenantId, currency: run.tenantCurrency, defaultVertical: run.tenantDefaultVertical },
    operation,
    `worker_${run.id}`,
  );
