// Project records (punch items, RFIs, incidents, daily logs, submittals, drawings, minutes): the
// kinds, and one status machine per kind, as data. The spec fixes the kinds, that status is
// read-only through the API (each kind has its own machine), that submittal transitions are
// enforced by the server, and the void/unvoid retraction (which is not a status: a retracted
// record keeps its status and carries voidedAt). The statuses and moves are ours, following how
// construction teams run each kind of record:
// - punch: open → in_progress → ready_for_review → closed; review can send it back to in_progress;
//   a closed item can be reopened.
// - rfi: open (asked) → answered → closed; an answer can be disputed back to open.
// - incident: reported → investigating → resolved → closed.
// - daily-log: draft → submitted → approved; a submitted log can be returned to draft.
// - submittal: draft → submitted → under_review → approved | approved_as_noted |
//   revise_and_resubmit | rejected; revise_and_resubmit → submitted (the resubmission).
// - drawing: current → superseded (a newer revision replaced it).
// - minutes: draft → published.

import { defineMachine, type Machine } from './define-machine.ts';

export const RECORD_KINDS = [
  'punch',
  'rfi',
  'incident',
  'daily-log',
  'submittal',
  'drawing',
  'minutes',
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Kinds the API lists and creates (spec); the others are read by id only. */
export const CREATABLE_RECORD_KINDS = ['punch', 'rfi', 'incident', 'daily-log'] as const;
export type CreatableRecordKind = (typeof CREATABLE_RECORD_KINDS)[number];

export const RECORD_STATUS_MACHINES = {
  punch: defineMachine({
    initial: 'open',
    moves: {
      open: ['in_progress', 'closed'],
      in_progress: ['ready_for_review'],
      ready_for_review: ['in_progress', 'closed'],
      closed: ['open'],
    },
  }),
  rfi: defineMachine({
    initial: 'open',
    moves: { open: ['answered'], answered: ['open', 'closed'], closed: [] },
  }),
  incident: defineMachine({
    initial: 'reported',
    moves: {
      reported: ['investigating'],
      investigating: ['resolved'],
      resolved: ['investigating', 'closed'],
      closed: [],
    },
  }),
  'daily-log': defineMachine({
    initial: 'draft',
    moves: { draft: ['submitted'], submitted: ['draft', 'approved'], approved: [] },
  }),
  submittal: defineMachine({
    initial: 'draft',
    moves: {
      draft: ['submitted'],
      submitted: ['under_review'],
      under_review: ['approved', 'approved_as_noted', 'revise_and_resubmit', 'rejected'],
      revise_and_resubmit: ['submitted'],
      approved: [],
      approved_as_noted: [],
      rejected: [],
    },
  }),
  drawing: defineMachine({ initial: 'current', moves: { current: ['superseded'], superseded: [] } }),
  minutes: defineMachine({ initial: 'draft', moves: { draft: ['published'], published: [] } }),
} satisfies Record<RecordKind, Machine<string, never>>;

export const isRecordKind = (value: string): value is RecordKind =>
  (RECORD_KINDS as readonly string[]).includes(value);

export const isCreatableRecordKind = (value: string): value is CreatableRecordKind =>
  (CREATABLE_RECORD_KINDS as readonly string[]).includes(value);

/** The statuses a record of `kind` may move to from `status` (none when either is unknown). */
export const nextRecordStatuses = (kind: string, status: string): string[] =>
  isRecordKind(kind) ? RECORD_STATUS_MACHINES[kind].next(status) : [];

export const recordStatusesOf = (kind: RecordKind): string[] => [...RECORD_STATUS_MACHINES[kind].states];

/** Values of the descriptive field `priority` (ours: the spec leaves the values open). */
export const RECORD_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type RecordPriority = (typeof RECORD_PRIORITIES)[number];

/** Descriptive fields every kind takes (spec: the amendable descriptive fields). */
export const RECORD_COMMON_FIELDS = [
  'description',
  'priority',
  'assignees',
  'dueDate',
  'ballInCourt',
  'involvedParty',
] as const;

/**
 * The fields each kind's body takes beyond kind and the common ones, and which of them a create
 * must carry (spec: punch needs title; rfi needs subject and question; incident needs title). A
 * field outside its kind's list is refused as unknown: the body is discriminated on kind.
 */
export const RECORD_KIND_FIELDS = {
  punch: { fields: ['title'], required: ['title'] },
  rfi: { fields: ['subject', 'question'], required: ['subject', 'question'] },
  incident: { fields: ['title'], required: ['title'] },
  'daily-log': { fields: ['title'], required: [] },
  submittal: { fields: ['title', 'number', 'revision'], required: ['title'] },
  drawing: { fields: ['title', 'number', 'revision'], required: ['title'] },
  minutes: { fields: ['title', 'number'], required: ['title'] },
} as const satisfies Record<RecordKind, { fields: readonly string[]; required: readonly string[] }>;

/** Every field a body of `kind` may carry besides kind itself. */
export const recordFieldsOf = (kind: RecordKind): string[] => [
  ...RECORD_KIND_FIELDS[kind].fields,
  ...RECORD_COMMON_FIELDS,
];
