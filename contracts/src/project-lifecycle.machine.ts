// The project (job) lifecycle, as data. The spec fixes: moves only through POST
// /projects/:id/lifecycle with a trigger; `schedule_assigned` and `deliverable_shipped` are
// triggers; `deliverable_shipped` is refused while the project has no packaged deliverable;
// `cancel` is never accepted through the API (cancelling is irreversible, a human act in the
// portal). The statuses and the other moves are ours:
// - planned: created, nobody assigned yet. schedule_assigned (a crew and a date) → scheduled;
//   schedule_cleared takes it back when the visit falls through.
// - scheduled → capturing (capture_started, the crew is on site) → processing (capture_completed,
//   the data is in) → delivered (deliverable_shipped, a packaged deliverable exists).
// - recapture from processing or delivered goes back to capturing: a site is flown again when the
//   data was not good enough or the client wants a new snapshot; the project keeps its history.
// - on_hold from planned, scheduled or capturing (hold), back to planned (resume): the schedule
//   has to be made again after a hold.
// - close from delivered → closed; reopen takes a closed project back to delivered.
// - cancel from any status but closed and cancelled → cancelled (terminal), portal only.

import { defineMachine, type StateOf, type TriggerOf } from './define-machine.ts';

export const PROJECT_LIFECYCLE_MACHINE = defineMachine(
  {
    states: [
      'planned',
      'scheduled',
      'capturing',
      'processing',
      'delivered',
      'on_hold',
      'closed',
      'cancelled',
    ],
    initial: 'planned',
    triggers: {
      schedule_assigned: { from: ['planned'], to: 'scheduled' },
      schedule_cleared: { from: ['scheduled'], to: 'planned' },
      capture_started: { from: ['scheduled'], to: 'capturing' },
      capture_completed: { from: ['capturing'], to: 'processing' },
      recapture: { from: ['processing', 'delivered'], to: 'capturing' },
      deliverable_shipped: { from: ['processing'], to: 'delivered' },
      hold: { from: ['planned', 'scheduled', 'capturing'], to: 'on_hold' },
      resume: { from: ['on_hold'], to: 'planned' },
      close: { from: ['delivered'], to: 'closed' },
      reopen: { from: ['closed'], to: 'delivered' },
      cancel: {
        from: ['planned', 'scheduled', 'capturing', 'processing', 'delivered', 'on_hold'],
        to: 'cancelled',
      },
    },
    /** Triggers POST /projects/:id/lifecycle never accepts (spec: cancelling is not an API act). */
    notByApi: ['cancel'],
  },
  {
    /** Triggers that need a packaged deliverable on the project (spec). */
    needsPackagedDeliverable: ['deliverable_shipped'],
    /** Statuses in which a project is still being worked (lists, the day view). */
    active: ['planned', 'scheduled', 'capturing', 'processing'],
  },
);
export type ProjectStatus = StateOf<typeof PROJECT_LIFECYCLE_MACHINE>;
export type ProjectTrigger = TriggerOf<typeof PROJECT_LIFECYCLE_MACHINE>;
export const PROJECT_STATUSES = PROJECT_LIFECYCLE_MACHINE.states;

/** The triggers the lifecycle endpoint accepts (every trigger but cancel). */
export const LIFECYCLE_API_TRIGGERS = PROJECT_LIFECYCLE_MACHINE.apiTriggers as Exclude<
  ProjectTrigger,
  'cancel'
>[];
