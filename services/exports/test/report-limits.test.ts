// The exports service re-checks the field limits of a saved report (contracts/src/field-limits):
// an over-long field sent straight to the service is refused with the HTTP API's error and field
// name (figures.0.label, as the gateway's paths name it) and saves nothing. Built from the data.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { REPORT_FIELD_LIMITS, REPORT_FIGURE_LIMITS, REPORT_FIGURES_MAX } from '@fieldops/contracts';
import type { tenantExports } from '@fieldops/proto';
import { ctx, openTestExports, refusal, type TestExports } from './harness.ts';

const tooLong = (max: number) => 'x'.repeat(max + 1);
const figure = (over: Partial<tenantExports.ReportFigure> = {}): tenantExports.ReportFigure => ({
  label: 'Deal value',
  resource: 'deals',
  measure: 'sum',
  field: 'valueCents',
  filterJson: '',
  ...over,
});

let t: TestExports;
beforeEach(async () => {
  t = await openTestExports();
});
afterEach(() => t.close());

async function expectRefused(request: tenantExports.SaveReportRequest, code: string, field: string) {
  const error = await refusal(t.domain.reports.saveReport(request, ctx()));
  expect(error.code).toBe(code);
  expect(error.extras).toMatchObject({ field });
  expect((await t.domain.reports.listReports({}, ctx())).items).toEqual([]);
}

describe('report field limits, checked by the service itself', () => {
  it.each(Object.entries(REPORT_FIELD_LIMITS))('saveReport refuses a %s over %i', async (field, max) => {
    await expectRefused({ name: 'R', figures: [figure()], [field]: tooLong(max) }, 'field_too_long', field);
  });

  it.each(['label', 'field'] as const)('saveReport refuses a figure whose %s is over-long', async (field) => {
    const figures = [figure(), figure({ [field]: tooLong(REPORT_FIGURE_LIMITS[field]) })];
    await expectRefused({ name: 'R', figures }, 'field_too_long', `figures.1.${field}`);
  });

  it('refuses an over-long filter value (field_too_long) or name (field_invalid), and too many figures', async () => {
    const longValue = JSON.stringify({ status: tooLong(REPORT_FIGURE_LIMITS.filterValue) });
    await expectRefused(
      { name: 'R', figures: [figure({ filterJson: longValue })] },
      'field_too_long',
      'figures.0.filter.status',
    );
    const key = tooLong(REPORT_FIGURE_LIMITS.filterKey);
    const longKey = JSON.stringify({ [key]: 'New' });
    await expectRefused(
      { name: 'R', figures: [figure({ filterJson: longKey })] },
      'field_invalid',
      `figures.0.filter.${key}`,
    );
    const many = Array.from({ length: REPORT_FIGURES_MAX + 1 }, () => figure());
    await expectRefused({ name: 'R', figures: many }, 'field_invalid', 'figures');
  });
});
