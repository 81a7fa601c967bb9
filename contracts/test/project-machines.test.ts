// The project lifecycle and the project record tables are data; these tests pin what the spec
// fixes about them and keep the tables internally consistent.
import {
  CREATABLE_RECORD_KINDS,
  LIFECYCLE_API_TRIGGERS,
  PROJECT_LIFECYCLE_MACHINE,
  PROJECT_STATUSES,
  RECORD_KIND_FIELDS,
  RECORD_KINDS,
  RECORD_STATUS_MACHINES,
  recordStatusesOf,
} from '../src/index.ts';

describe('project lifecycle machine', () => {
  it('has the triggers the spec names, and never offers cancel through the API', () => {
    expect(PROJECT_LIFECYCLE_MACHINE.triggerNames).toEqual(
      expect.arrayContaining(['schedule_assigned', 'deliverable_shipped', 'cancel']),
    );
    expect(LIFECYCLE_API_TRIGGERS).not.toContain('cancel');
    for (const status of PROJECT_STATUSES)
      expect(PROJECT_LIFECYCLE_MACHINE.legalTriggers(status)).not.toContain('cancel');
    expect(PROJECT_LIFECYCLE_MACHINE.needsPackagedDeliverable).toEqual(['deliverable_shipped']);
  });

  it('moves only between declared statuses, starting at planned', () => {
    expect(PROJECT_LIFECYCLE_MACHINE.initial).toBe('planned');
    for (const { from, to } of Object.values(PROJECT_LIFECYCLE_MACHINE.triggers)) {
      expect(PROJECT_STATUSES).toContain(to);
      for (const status of from) expect(PROJECT_STATUSES).toContain(status);
    }
  });

  it('publishes moves that agree with the legal triggers, and cancelled is reached only by cancel', () => {
    expect(PROJECT_LIFECYCLE_MACHINE.moves.planned).toEqual(['scheduled', 'on_hold']);
    expect(PROJECT_LIFECYCLE_MACHINE.moves.cancelled).toEqual([]);
    for (const moves of Object.values(PROJECT_LIFECYCLE_MACHINE.moves))
      expect(moves).not.toContain('cancelled');
  });
});

describe('project record tables', () => {
  it('lists and creates four kinds and reads seven', () => {
    expect(CREATABLE_RECORD_KINDS).toEqual(['punch', 'rfi', 'incident', 'daily-log']);
    expect(RECORD_KINDS).toEqual(expect.arrayContaining(['submittal', 'drawing', 'minutes']));
  });

  it('requires what the spec says per kind, and only fields the kind takes', () => {
    expect(RECORD_KIND_FIELDS.punch.required).toEqual(['title']);
    expect(RECORD_KIND_FIELDS.rfi.required).toEqual(['subject', 'question']);
    expect(RECORD_KIND_FIELDS.incident.required).toEqual(['title']);
    for (const rule of Object.values(RECORD_KIND_FIELDS)) {
      for (const field of rule.required) expect(rule.fields).toContain(field);
    }
  });

  it('every kind machine moves between its own statuses and never to the same one', () => {
    for (const kind of RECORD_KINDS) {
      const statuses = recordStatusesOf(kind);
      expect(statuses).toContain(RECORD_STATUS_MACHINES[kind].initial);
      for (const [from, moves] of Object.entries(RECORD_STATUS_MACHINES[kind].moves)) {
        for (const to of moves as readonly string[]) {
          expect(statuses).toContain(to);
          expect(to).not.toBe(from);
        }
      }
    }
  });
});
