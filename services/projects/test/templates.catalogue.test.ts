// The shipped templates: each schedules (no cycle, known dependencies), one per vertical.
import { describe, expect, it } from '@jest/globals';
import { buildNetwork } from '../src/schedule/network.ts';
import { computeSchedule } from '../src/schedule/schedule.ts';
import { workCalendar } from '../src/schedule/work-calendar.ts';
import { getTemplate, listTemplates, templateForVertical } from '../src/templates/templates.ts';

describe('the template catalogue', () => {
  it('schedules every template, each ending in a milestone on its critical path', () => {
    for (const template of listTemplates()) {
      const plan = computeSchedule(buildNetwork(template.tasks), workCalendar(), '2025-01-06');
      const last = template.tasks[template.tasks.length - 1];
      expect([template.id, last?.durationDays]).toEqual([template.id, 0]);
      expect(plan.criticalPath[plan.criticalPath.length - 1]).toBe(last?.id);
    }
  });

  it('has one template per vertical and falls back to the general one', () => {
    const verticals = listTemplates().map((template) => template.vertical);
    expect(new Set(verticals).size).toBe(verticals.length);
    expect(templateForVertical('solar').id).toBe('tpl_solar');
    expect(templateForVertical('bridge-inspection').id).toBe('tpl_general');
    expect(() => getTemplate('tpl_missing')).toThrow(/No template with id tpl_missing/);
  });
});
