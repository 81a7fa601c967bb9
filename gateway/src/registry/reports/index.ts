// Saved reports (ENDPOINTS rows 45–46, plus POST /reports to save one: the spec lists only the
// reads). A report is a definition only: the figures it watches and the queries behind them, never
// a value. Every call needs a token bound to a member (409 principal_unbound). Served by
// exports.ReportService.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listReports, saveReport } from './reports.js';
import { getReport } from './reports.id.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const reportEndpoints: EndpointDef[] = [listReports, getReport, saveReport];
