// Reconstruction runs: POST /process and the run poll target.
import type { RequestContext } from '@fieldops/kit';
import type { capture } from '@fieldops/proto';
import { RUNS } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';
import { projectWriteRpcOf } from '@fieldops/kit/write';
import { loadOfProject } from '../projects/project-docs.ts';
import { planProcess } from './process.plan.ts';
import { toRunView, type RunDoc } from '../run-model/run.model.ts';

export const processProject = projectWriteRpcOf('processProject', 'run', planProcess);

export async function getRun(
  deps: CaptureDeps,
  req: capture.RunRef,
  ctx: RequestContext,
): Promise<capture.Run> {
  const ref = { projectId: req.projectId, id: req.runId };
  return toRunView(await loadOfProject<RunDoc>(deps, ctx, RUNS, ref, 'run'));
}
