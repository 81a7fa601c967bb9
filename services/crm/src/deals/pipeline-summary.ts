// The tenant's pipeline at a glance, returned beside every page of GET /deals whatever its
// filters: how many deals sit at each stage, and what the open ones are worth.
import { DEAL_STAGE_MACHINE, DEAL_STAGES } from '@fieldops/contracts';
import type { DocumentStore } from '@fieldops/kit/store';
import type { deals } from '@fieldops/proto';
import { DEALS } from '../collections.ts';
import type { DealDoc } from './deal.model.ts';

export async function pipelineSummary(
  store: DocumentStore,
  tenantId: string,
  currency: string,
): Promise<deals.PipelineSummary> {
  const counts = await Promise.all(DEAL_STAGES.map((stage) => store.count(DEALS, tenantId, { stage })));
  const stageCounts = Object.fromEntries(DEAL_STAGES.map((stage, i) => [stage, counts[i] ?? 0]));
  const openCount = DEAL_STAGE_MACHINE.open.reduce((sum, stage) => sum + (stageCounts[stage] ?? 0), 0);
  // Only priced deals add to the value, so unpriced ones (most of a fresh pipeline) are never read.
  const priced = await store.find<DealDoc>(DEALS, tenantId, {
    stage: { $in: [...DEAL_STAGE_MACHINE.open] },
    valueCents: { $gt: 0 },
    currency,
  });
  const cents = priced.reduce((sum, deal) => sum + deal.valueCents, 0);
  return { stageCounts, openValue: { cents, currency }, openCount };
}
