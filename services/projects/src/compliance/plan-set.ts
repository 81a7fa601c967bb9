// Plan-set readiness of a solar project with a design: whether what a permit application needs is
// in hand. Designs come from capture (issue 5), which reports their count on the project; the
// engineer's seal is a binding act in capture too, so it is not part of this checklist.
import type { PermitValues } from '../permits/permit-merge.ts';
import type { ProjectDoc } from '../projects/project.model.ts';

export interface PlanSetItem {
  id: string;
  label: string;
  met: boolean;
}

export interface PlanSetReadiness {
  ready: boolean;
  items: PlanSetItem[];
  missing: string[];
}

/** A design of a solar project is a solar design. */
export const hasSolarDesign = (project: Pick<ProjectDoc, 'vertical' | 'content'>): boolean =>
  project.vertical === 'solar' && (project.content?.designs ?? 0) > 0;

export function planSetReadiness(
  project: Pick<ProjectDoc, 'siteAddress' | 'geo' | 'content'>,
  permit: PermitValues,
): PlanSetReadiness {
  const items: PlanSetItem[] = [
    { id: 'design', label: 'A solar design of the roof exists', met: (project.content?.designs ?? 0) > 0 },
    { id: 'siteAddress', label: 'The site address is recorded', met: Boolean(project.siteAddress) },
    { id: 'geo', label: 'The site location (geo) is recorded', met: Boolean(project.geo) },
    {
      id: 'ahj',
      label: 'Permit metadata names the authority having jurisdiction (ahj)',
      met: Boolean(permit['ahj']),
    },
    { id: 'utility', label: 'Permit metadata names the utility', met: Boolean(permit['utility']) },
    {
      id: 'parcelNumber',
      label: 'Permit metadata holds the parcel number',
      met: Boolean(permit['parcelNumber']),
    },
    {
      id: 'contractorLicense',
      label: 'Permit metadata holds the contractor licence',
      met: Boolean(permit['contractorLicense']),
    },
  ];
  const missing = items.filter((item) => !item.met).map((item) => item.id);
  return { ready: missing.length === 0, items, missing };
}
