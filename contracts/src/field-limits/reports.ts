// Field limits of saved reports (services/exports). How the limits are read and re-checked:
// ./index.ts.
/** POST /reports: maximum characters of the report's own fields; name after trimming. */
export const REPORT_FIELD_LIMITS = { name: 200, description: 2000 } as const;

/** One figure: its label, the numeric field it sums, and each list filter's key and value. */
export const REPORT_FIGURE_LIMITS = {
  label: 200,
  field: 100,
  filterKey: 100,
  filterValue: 500,
} as const;

/** The figures one report watches. */
export const REPORT_FIGURES_MAX = 20;
