// Saved reports called as the gRPC binding calls them: a direct caller gets the same refusals the
// gateway gives (figures are checked in the service too), and visibility follows the role.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { tenantExports } from '@fieldops/proto';
import { ctx, openTestExports, refusal, type TestExports } from './harness.ts';

let t: TestExports;
beforeEach(async () => {
  t = await openTestExports();
});
afterEach(() => t.close());

const figure = (over: Partial<tenantExports.ReportFigure> = {}): tenantExports.ReportFigure => ({
  label: 'New leads',
  resource: 'leads',
  measure: 'count',
  field: '',
  filterJson: '{"status":"New"}',
  ...over,
});
const staff = (memberId: string) =>
  ctx({ principal: { kind: 'token', tokenId: `tok_${memberId}`, role: 'Staff', memberId } });

describe('ReportService', () => {
  it('checks figures: measure, field, filter shape', async () => {
    const save = (f: tenantExports.ReportFigure) =>
      refusal(t.domain.reports.saveReport({ name: 'R', figures: [f] }, staff('mem_a')));
    expect((await save(figure({ measure: 'median' }))).code).toBe('field_invalid_enum');
    expect((await save(figure({ measure: 'sum' }))).code).toBe('field_required');
    expect((await save(figure({ field: 'valueCents' }))).code).toBe('field_invalid');
    expect((await save(figure({ filterJson: '[1]' }))).code).toBe('field_invalid');
    expect((await save(figure({ filterJson: '{"n":1}' }))).code).toBe('field_invalid');
    expect(
      (await refusal(t.domain.reports.saveReport({ name: ' ', figures: [figure()] }, staff('mem_a')))).code,
    ).toBe('field_required');
    expect((await t.domain.reports.listReports({}, ctx())).items).toEqual([]);
  });

  it('keeps each member to their own reports unless the role reads the tenant’s', async () => {
    const a = await t.domain.reports.saveReport({ name: 'A', figures: [figure()] }, staff('mem_a'));
    await t.domain.reports.saveReport({ name: 'B', figures: [figure()] }, staff('mem_b'));
    expect((await t.domain.reports.listReports({}, staff('mem_a'))).items.map((r) => r.name)).toEqual(['A']);
    expect((await t.domain.reports.listReports({}, ctx())).items.map((r) => r.name)).toEqual(['B', 'A']);
    const owner = ctx({ principal: { kind: 'token', tokenId: 'tok_o', role: 'Owner', memberId: 'mem_o' } });
    expect((await t.domain.reports.listReports({}, owner)).items).toHaveLength(2);
    expect((await refusal(t.domain.reports.getReport({ id: a.report!.id }, staff('mem_b')))).code).toBe(
      'not_found',
    );
  });

  it('refuses a principal bound to no member, even a Manager', async () => {
    const unbound = ctx({ principal: { kind: 'token', tokenId: 'tok_x', role: 'Manager', memberId: '' } });
    expect((await refusal(t.domain.reports.listReports({}, unbound))).code).toBe('principal_unbound');
    expect((await refusal(t.domain.reports.getReport({ id: 'rpt_x' }, unbound))).code).toBe(
      'principal_unbound',
    );
    expect(
      (await refusal(t.domain.reports.saveReport({ name: 'R', figures: [figure()] }, unbound))).code,
    ).toBe('principal_unbound');
  });
});
