// GET /projects/:id/compliance: the obligations of the site's jurisdiction, each with a checkable
// citation, from the versioned rules data set; and plan-set readiness when a solar design exists.
import type { RequestContext } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { requireTenantId } from '@fieldops/kit/write';
import type { planning } from '@fieldops/proto';
import type { Geocoder } from '../geocoding/geocoder.port.ts';
import { effectivePermit } from '../permits/permits.service.ts';
import { loadProject } from '../projects/projects.service.ts';
import { RULESET_REVIEWED_ON, RULESET_VERSION } from './compliance-rules.data.ts';
import { placeSite } from './jurisdiction.ts';
import { hasSolarDesign, planSetReadiness } from './plan-set.ts';

export const COMPLIANCE_NOTE =
  'Statutory obligations for the operating business to meet, with their sources. This is not an authorisation to fly: the business remains the professional of record for its flights, pilots and airspace.';

export async function getCompliance(
  store: DocumentStore,
  geocoder: Geocoder,
  req: planning.GetComplianceRequest,
  ctx: RequestContext,
): Promise<planning.ComplianceReport> {
  const tenantId = requireTenantId(ctx);
  const project = await loadProject(store, tenantId, req.projectId);
  const placement = await placeSite(project, geocoder);
  const { jurisdiction } = placement;
  const planSet = hasSolarDesign(project)
    ? planSetReadiness(project, await effectivePermit(store, tenantId, project.id))
    : undefined;
  return {
    projectId: project.id,
    jurisdiction: {
      id: jurisdiction.id,
      name: jurisdiction.name,
      authority: jurisdiction.authority,
      countryCode: placement.countryCode,
      locatedBy: placement.locatedBy,
    },
    rulesetVersion: RULESET_VERSION,
    rulesetReviewedOn: RULESET_REVIEWED_ON,
    obligations: jurisdiction.obligations.map((obligation) => ({ ...obligation })),
    planSet,
    note: COMPLIANCE_NOTE,
  };
}
