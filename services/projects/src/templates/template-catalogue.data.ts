// The task networks shipped with the service, one per vertical. A project is scheduled on its
// vertical's template plus its own tasks (a project task with a template task's id replaces it).
// Durations are working days of one crew for a typical site; a project adjusts them by filing a
// task with the same id. Raise `version` whenever a network changes: schedules name the version
// they were computed from.
import type { TaskDefinitionInput } from '../schedule/network.ts';

export interface TemplateInput {
  id: string;
  vertical: string;
  version: number;
  name: string;
  description: string;
  tasks: TaskDefinitionInput[];
}

const after = (...ids: string[]) => ids.map((taskId) => ({ taskId }));

/** Planning steps every flight shares: the airspace check has to clear before anyone flies. */
const preFlight: TaskDefinitionInput[] = [
  { id: 'scope', name: 'Confirm scope and deliverables with the customer', durationDays: 1 },
  {
    id: 'site-review',
    name: 'Desk review of the site (imagery, access, hazards)',
    durationDays: 1,
    predecessors: after('scope'),
  },
  {
    id: 'airspace',
    name: 'Airspace check and authorisations',
    durationDays: 3,
    predecessors: after('scope'),
  },
  {
    id: 'flight-plan',
    name: 'Draft flight plan and risk assessment',
    durationDays: 1,
    predecessors: after('site-review'),
  },
  {
    id: 'plan-review',
    name: 'Human review of the flight plan',
    durationDays: 1,
    predecessors: after('flight-plan', 'airspace'),
  },
];

export const TEMPLATE_CATALOGUE: readonly TemplateInput[] = [
  {
    id: 'tpl_survey',
    vertical: 'survey',
    version: 1,
    name: 'Topographic survey',
    description: 'Ground control, photogrammetry flight, processing to a surface model and a checked survey.',
    tasks: [
      ...preFlight,
      {
        id: 'control',
        name: 'Set and measure ground control points',
        durationDays: 1,
        predecessors: after('plan-review'),
      },
      { id: 'capture', name: 'Fly the site', durationDays: 1, predecessors: after('control') },
      {
        id: 'process',
        name: 'Process imagery to a surface model',
        durationDays: 2,
        predecessors: after('capture'),
      },
      {
        id: 'accuracy',
        name: 'Accuracy check against checkpoints',
        durationDays: 1,
        predecessors: after('process'),
      },
      { id: 'deliver', name: 'Package and deliver', durationDays: 1, predecessors: after('accuracy') },
      { id: 'delivered', name: 'Delivered', durationDays: 0, predecessors: after('deliver') },
    ],
  },
  {
    id: 'tpl_roofing',
    vertical: 'roofing',
    version: 1,
    name: 'Roof inspection and measurement',
    description: 'Roof capture, marked roof outline, measured facets and an inspection report.',
    tasks: [
      ...preFlight,
      { id: 'capture', name: 'Fly the roof', durationDays: 1, predecessors: after('plan-review') },
      {
        id: 'process',
        name: 'Process imagery to a roof model',
        durationDays: 1,
        predecessors: after('capture'),
      },
      {
        id: 'mark-roof',
        name: 'Mark the roof outline and facets',
        durationDays: 1,
        predecessors: after('process'),
      },
      { id: 'report', name: 'Write the inspection report', durationDays: 2, predecessors: after('process') },
      {
        id: 'deliver',
        name: 'Package and deliver',
        durationDays: 1,
        predecessors: after('mark-roof', 'report'),
      },
      { id: 'delivered', name: 'Delivered', durationDays: 0, predecessors: after('deliver') },
    ],
  },
  {
    id: 'tpl_solar',
    vertical: 'solar',
    version: 1,
    name: 'Solar site assessment and plan set',
    description: 'Roof capture, array design, plan set and permit submission.',
    tasks: [
      ...preFlight,
      { id: 'capture', name: 'Fly the roof', durationDays: 1, predecessors: after('plan-review') },
      {
        id: 'process',
        name: 'Process imagery to a roof model',
        durationDays: 1,
        predecessors: after('capture'),
      },
      {
        id: 'mark-roof',
        name: 'Mark the roof outline, obstructions and setbacks',
        durationDays: 1,
        predecessors: after('process'),
      },
      { id: 'shade', name: 'Shade analysis', durationDays: 1, predecessors: after('mark-roof') },
      { id: 'design', name: 'Array design', durationDays: 2, predecessors: after('mark-roof') },
      {
        id: 'structural',
        name: 'Structural review of the roof',
        durationDays: 3,
        predecessors: after('mark-roof'),
      },
      {
        id: 'plan-set',
        name: 'Assemble the plan set',
        durationDays: 2,
        predecessors: after('design', 'shade'),
      },
      {
        id: 'seal',
        name: 'Engineer review and seal',
        durationDays: 2,
        predecessors: after('plan-set', 'structural'),
      },
      { id: 'permit', name: 'Submit the permit application', durationDays: 1, predecessors: after('seal') },
      { id: 'submitted', name: 'Permit submitted', durationDays: 0, predecessors: after('permit') },
    ],
  },
  {
    id: 'tpl_construction',
    vertical: 'construction',
    version: 1,
    name: 'Construction progress capture',
    description: 'A progress flight, volumes and a comparison with the previous snapshot.',
    tasks: [
      ...preFlight,
      {
        id: 'site-induction',
        name: 'Site induction and permit to work',
        durationDays: 1,
        predecessors: after('scope'),
      },
      {
        id: 'capture',
        name: 'Fly the site',
        durationDays: 1,
        predecessors: after('plan-review', 'site-induction'),
      },
      {
        id: 'process',
        name: 'Process imagery to a surface model',
        durationDays: 2,
        predecessors: after('capture'),
      },
      {
        id: 'volumes',
        name: 'Measure stockpiles and earthworks',
        durationDays: 1,
        predecessors: after('process'),
      },
      {
        id: 'compare',
        name: 'Compare with the previous snapshot and the design',
        durationDays: 1,
        predecessors: after('process'),
      },
      {
        id: 'deliver',
        name: 'Package and deliver',
        durationDays: 1,
        predecessors: after('volumes', 'compare'),
      },
      { id: 'delivered', name: 'Delivered', durationDays: 0, predecessors: after('deliver') },
    ],
  },
  {
    id: 'tpl_inspection',
    vertical: 'inspection',
    version: 1,
    name: 'Asset inspection',
    description: 'Close-range inspection flight, defect review and a report.',
    tasks: [
      ...preFlight,
      { id: 'capture', name: 'Fly the asset', durationDays: 1, predecessors: after('plan-review') },
      {
        id: 'defects',
        name: 'Review imagery and log defects',
        durationDays: 2,
        predecessors: after('capture'),
      },
      { id: 'report', name: 'Write the inspection report', durationDays: 1, predecessors: after('defects') },
      { id: 'deliver', name: 'Package and deliver', durationDays: 1, predecessors: after('report') },
      { id: 'delivered', name: 'Delivered', durationDays: 0, predecessors: after('deliver') },
    ],
  },
  {
    id: 'tpl_general',
    vertical: 'general',
    version: 1,
    name: 'General site capture',
    description: 'The network of a vertical the catalogue has no template for: plan, fly, process, deliver.',
    tasks: [
      ...preFlight,
      { id: 'capture', name: 'Fly the site', durationDays: 1, predecessors: after('plan-review') },
      { id: 'process', name: 'Process imagery', durationDays: 2, predecessors: after('capture') },
      { id: 'deliver', name: 'Package and deliver', durationDays: 1, predecessors: after('process') },
      { id: 'delivered', name: 'Delivered', durationDays: 0, predecessors: after('deliver') },
    ],
  },
];

/** The template a vertical without its own is scheduled on. */
export const FALLBACK_TEMPLATE_ID = 'tpl_general';
