// The lead status machine, as data. PATCH moves a lead only along `moves`; conversion is its own
// operation (POST /leads/:id/convert) and is the only way into Converted. The spec leaves the
// moves open; these are our decisions:
// - New → Contacted | Qualified | Lost: a lead can be qualified straight from its first message.
// - Contacted → Qualified | Lost: no way back to New; once someone talked to them, it was touched.
// - Qualified → Contacted | Lost: qualification can be taken back to "still talking".
// - Lost → New: reopening puts the lead back in the inbox as if it had just come in.
// - Converted: terminal; the customer and deal it produced carry the story on.

import { defineMachine, type StateOf } from './define-machine.ts';

export const LEAD_STATUS_MACHINE = defineMachine(
  {
    initial: 'New',
    moves: {
      New: ['Contacted', 'Qualified', 'Lost'],
      Contacted: ['Qualified', 'Lost'],
      Qualified: ['Contacted', 'Lost'],
      Converted: [],
      Lost: ['New'],
    },
  },
  {
    /** Statuses POST /leads/:id/convert accepts. */
    convertibleFrom: ['New', 'Contacted', 'Qualified'],
    /** The status a lead has after conversion. */
    afterConversion: 'Converted',
    /** Open leads take part in email dedupe; Converted and Lost ones do not. */
    open: ['New', 'Contacted', 'Qualified'],
  },
);
export type LeadStatus = StateOf<typeof LEAD_STATUS_MACHINE>;
export const LEAD_STATUSES = LEAD_STATUS_MACHINE.states;
