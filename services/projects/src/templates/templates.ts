// The template catalogue, parsed once at load (a broken shipped template fails the process at
// start, never a request), and the lookups the schedule and the API need.
import { notFound } from '@fieldops/kit';
import { buildNetwork, taskDefinitionSchema, type TaskDefinition } from '../schedule/network.ts';
import { topologicalOrder } from '../schedule/topological-order.ts';
import { FALLBACK_TEMPLATE_ID, TEMPLATE_CATALOGUE, type TemplateInput } from './template-catalogue.data.ts';

export interface Template {
  id: string;
  vertical: string;
  version: number;
  name: string;
  description: string;
  tasks: TaskDefinition[];
}

function parseTemplate(input: TemplateInput): Template {
  const tasks = input.tasks.map((task) => taskDefinitionSchema.parse(task));
  // Shipped data must schedule: unique ids, known dependencies, no cycle.
  topologicalOrder(buildNetwork(tasks));
  return { ...input, tasks };
}

const TEMPLATES: readonly Template[] = TEMPLATE_CATALOGUE.map(parseTemplate);
const BY_ID = new Map(TEMPLATES.map((template) => [template.id, template]));

/** Every template, optionally only the vertical's. */
export function listTemplates(vertical?: string): Template[] {
  return TEMPLATES.filter((template) => !vertical || template.vertical === vertical);
}

export function getTemplate(id: string): Template {
  const template = BY_ID.get(id);
  if (!template) throw notFound('template', id);
  return template;
}

/** The vertical's template, or the general one when the catalogue has none for it. */
export function templateForVertical(vertical: string): Template {
  return (
    TEMPLATES.find((template) => template.vertical === vertical) ??
    (BY_ID.get(FALLBACK_TEMPLATE_ID) as Template)
  );
}
