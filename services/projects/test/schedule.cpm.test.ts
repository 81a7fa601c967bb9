// The critical-path computation against hand-checked networks: a textbook example with known
// early/late starts, floats and critical path, links of every type with lags, the working
// calendar, and the networks that cannot be scheduled.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { AppError } from '@fieldops/kit';
import { buildNetwork, type TaskDefinitionInput, taskDefinitionSchema } from '../src/schedule/network.ts';
import { computeSchedule, type ScheduledTask } from '../src/schedule/schedule.ts';
import { workCalendar } from '../src/schedule/work-calendar.ts';

const tasks = (list: TaskDefinitionInput[]) => list.map((task) => taskDefinitionSchema.parse(task));
const fs = (...ids: string[]) => ids.map((taskId) => ({ taskId }));
const byId = (list: ScheduledTask[]) => Object.fromEntries(list.map((task) => [task.id, task]));
// Seven-day weeks make offsets and dates line up one to one, so floats read as day counts.
const everyDay = workCalendar({ workingDays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] });

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a textbook network (Heizer & Render, Milwaukee Paper: 15 weeks, A-C-E-G-H)', () => {
  const network = buildNetwork(
    tasks([
      { id: 'A', name: 'Build internal components', durationDays: 2 },
      { id: 'B', name: 'Modify roof and floor', durationDays: 3 },
      { id: 'C', name: 'Construct collection stack', durationDays: 2, predecessors: fs('A') },
      { id: 'D', name: 'Pour concrete and install frame', durationDays: 4, predecessors: fs('A', 'B') },
      { id: 'E', name: 'Build high-temperature burner', durationDays: 4, predecessors: fs('C') },
      { id: 'F', name: 'Install pollution control system', durationDays: 3, predecessors: fs('C') },
      { id: 'G', name: 'Install air pollution device', durationDays: 5, predecessors: fs('D', 'E') },
      { id: 'H', name: 'Inspect and test', durationDays: 2, predecessors: fs('F', 'G') },
    ]),
  );
  const plan = computeSchedule(network, everyDay, '2025-01-01');
  const at = byId(plan.tasks);

  it('lasts 15 days and its critical path is A, C, E, G, H', () => {
    expect(plan.durationDays).toBe(15);
    expect(plan.finish).toBe('2025-01-15');
    expect(plan.criticalPath).toEqual(['A', 'C', 'E', 'G', 'H']);
    expect(plan.criticalPaths).toEqual([['A', 'C', 'E', 'G', 'H']]);
  });

  it('has the book’s slack: B and D 1, F 6, the rest 0', () => {
    const slack = Object.fromEntries(plan.tasks.map((task) => [task.id, task.totalFloat]));
    expect(slack).toEqual({ A: 0, B: 1, C: 0, D: 1, E: 0, F: 6, G: 0, H: 0 });
  });

  it('has the book’s early and late starts (day 1 is 2025-01-01)', () => {
    const day = (n: number) => `2025-01-${String(n + 1).padStart(2, '0')}`;
    const expected = {
      A: [0, 0],
      B: [0, 1],
      C: [2, 2],
      D: [3, 4],
      E: [4, 4],
      F: [4, 10],
      G: [8, 8],
      H: [13, 13],
    };
    for (const [id, [early, late]] of Object.entries(expected)) {
      expect([id, at[id]?.earlyStart, at[id]?.lateStart]).toEqual([
        id,
        day(early as number),
        day(late as number),
      ]);
    }
    // A finish is the last day worked: F runs days 4..6 early and 10..12 late.
    expect([at['F']?.earlyFinish, at['F']?.lateFinish]).toEqual(['2025-01-07', '2025-01-13']);
  });

  it('tells free float from total float: B slips into D, F slips alone', () => {
    expect([at['B']?.totalFloat, at['B']?.freeFloat]).toEqual([1, 0]);
    expect([at['D']?.totalFloat, at['D']?.freeFloat]).toEqual([1, 1]);
    expect([at['F']?.totalFloat, at['F']?.freeFloat]).toEqual([6, 6]);
  });

  it('lists tasks in dependency order', () => {
    const position = new Map(plan.tasks.map((task, index) => [task.id, index]));
    for (const task of plan.tasks)
      for (const { taskId } of task.predecessors)
        expect(position.get(taskId)).toBeLessThan(position.get(task.id) as number);
  });
});

describe('links of every type, with lags and leads', () => {
  // A 4; B 3 starts 2 after A starts; C 2 finishes 1 after B finishes; D 1 after A and C.
  // Hand-checked: ES A0 B2 C4 D6, finish 7; every task is critical through SS and FF links.
  const network = buildNetwork(
    tasks([
      { id: 'A', name: 'Fly the site', durationDays: 4 },
      {
        id: 'B',
        name: 'Process imagery',
        durationDays: 3,
        predecessors: [{ taskId: 'A', type: 'SS', lagDays: 2 }],
      },
      {
        id: 'C',
        name: 'Check control',
        durationDays: 2,
        predecessors: [{ taskId: 'B', type: 'FF', lagDays: 1 }],
      },
      { id: 'D', name: 'Deliver', durationDays: 1, predecessors: fs('A', 'C') },
    ]),
  );

  it('computes the hand-checked dates and a critical chain through SS and FF', () => {
    const plan = computeSchedule(network, everyDay, '2025-06-01');
    const at = byId(plan.tasks);
    expect(plan.tasks.map((task) => [task.id, task.earlyStart, task.earlyFinish, task.totalFloat])).toEqual([
      ['A', '2025-06-01', '2025-06-04', 0],
      ['B', '2025-06-03', '2025-06-05', 0],
      ['C', '2025-06-05', '2025-06-06', 0],
      ['D', '2025-06-07', '2025-06-07', 0],
    ]);
    expect(plan.criticalPaths).toEqual([['A', 'B', 'C', 'D']]);
    expect(at['A']?.lateFinish).toBe('2025-06-04');
  });

  it('lets a lead (negative lag) overlap a task with its predecessor', () => {
    const overlap = buildNetwork(
      tasks([
        { id: 'A', name: 'Survey', durationDays: 5 },
        { id: 'B', name: 'Draft', durationDays: 3, predecessors: [{ taskId: 'A', lagDays: -2 }] },
      ]),
    );
    const plan = computeSchedule(overlap, everyDay, '2025-06-01');
    expect(byId(plan.tasks)['B']?.earlyStart).toBe('2025-06-04');
    expect(plan.durationDays).toBe(6);
  });

  it('dates a milestone at the end of the day its predecessor finishes', () => {
    const withMilestone = buildNetwork(
      tasks([
        { id: 'fly', name: 'Fly', durationDays: 3 },
        { id: 'done', name: 'Data in hand', durationDays: 0, predecessors: fs('fly') },
      ]),
    );
    const plan = computeSchedule(withMilestone, workCalendar(), '2025-03-14');
    const done = byId(plan.tasks)['done'];
    expect(done).toMatchObject({ milestone: true, earlyStart: '2025-03-18', earlyFinish: '2025-03-18' });
    expect(plan.finish).toBe('2025-03-18');
  });
});

describe('the working calendar', () => {
  const one = buildNetwork(tasks([{ id: 'A', name: 'Capture', durationDays: 3 }]));

  it('counts working days only: three days from Friday 14 March 2025 end on Tuesday', () => {
    const plan = computeSchedule(one, workCalendar(), '2025-03-14');
    expect(byId(plan.tasks)['A']).toMatchObject({ earlyStart: '2025-03-14', earlyFinish: '2025-03-18' });
  });

  it('starts on the first working day when the start is a weekend, and skips holidays', () => {
    const plan = computeSchedule(one, workCalendar({ holidays: ['2025-03-18'] }), '2025-03-15');
    expect(plan.firstWorkingDay).toBe('2025-03-17');
    expect(byId(plan.tasks)['A']).toMatchObject({ earlyStart: '2025-03-17', earlyFinish: '2025-03-20' });
  });

  it('holds a task to its start-no-earlier-than date, which gives its siblings float', () => {
    const network = buildNetwork(
      tasks([
        { id: 'book', name: 'Booked visit', durationDays: 1, startNoEarlierThan: '2025-03-20' },
        { id: 'prep', name: 'Prepare flight plan', durationDays: 1 },
        { id: 'report', name: 'Report', durationDays: 1, predecessors: fs('book', 'prep') },
      ]),
    );
    const plan = computeSchedule(network, workCalendar(), '2025-03-17');
    const at = byId(plan.tasks);
    expect(at['book']).toMatchObject({ earlyStart: '2025-03-20', critical: true });
    expect(at['prep']).toMatchObject({ earlyStart: '2025-03-17', totalFloat: 3 });
    expect(at['report']?.earlyStart).toBe('2025-03-21');
  });
});

describe('networks that cannot be scheduled answer 409 naming why', () => {
  it('names a cycle in dependency order', () => {
    const network = buildNetwork(
      tasks([
        { id: 'a', name: 'A', durationDays: 1, predecessors: fs('c') },
        { id: 'b', name: 'B', durationDays: 1, predecessors: fs('a') },
        { id: 'c', name: 'C', durationDays: 1, predecessors: fs('b') },
      ]),
    );
    const error = refusal(() => computeSchedule(network, workCalendar(), '2025-01-06'));
    expect(error.code).toBe('conflict');
    expect(error.extras['details']).toEqual({ reason: 'dependency_cycle', cycle: ['a', 'b', 'c', 'a'] });
    expect(error.message).toContain('a → b → c → a');
  });

  it('names a task that depends on itself', () => {
    const network = buildNetwork(tasks([{ id: 'x', name: 'X', durationDays: 1, predecessors: fs('x') }]));
    const error = refusal(() => computeSchedule(network, workCalendar(), '2025-01-06'));
    expect(error.message).toContain('task x depends on itself');
  });

  it('names a dependency on a task that does not exist, and a repeated id', () => {
    const unknown = refusal(() =>
      buildNetwork(tasks([{ id: 'x', name: 'X', durationDays: 1, predecessors: fs('y') }])),
    );
    expect(unknown.extras['details']).toEqual({ reason: 'unknown_dependency', taskId: 'x', dependsOn: 'y' });
    const twice = refusal(() =>
      buildNetwork(
        tasks([
          { id: 'x', name: 'X', durationDays: 1 },
          { id: 'x', name: 'X again', durationDays: 2 },
        ]),
      ),
    );
    expect(twice.extras['details']).toEqual({ reason: 'duplicate_task', taskId: 'x' });
  });

  it('refuses a start-no-earlier-than date beyond the horizon, naming the task', () => {
    const far = buildNetwork(
      tasks([{ id: 'x', name: 'X', durationDays: 1, startNoEarlierThan: '9999-01-01' }]),
    );
    const error = refusal(() => computeSchedule(far, workCalendar(), '2025-01-06'));
    expect(error.extras['details']).toMatchObject({ reason: 'beyond_horizon' });
    expect(error.message).toContain('task x');
  });

  it('refuses a plan beyond the horizon', () => {
    const chain = buildNetwork(
      tasks(
        Array.from({ length: 6 }, (_, i) => ({
          id: `t${i}`,
          name: `T${i}`,
          durationDays: 1000,
          predecessors: i === 0 ? [] : fs(`t${i - 1}`),
        })),
      ),
    );
    expect(
      refusal(() => computeSchedule(chain, workCalendar(), '2025-01-06')).extras['details'],
    ).toMatchObject({
      reason: 'beyond_horizon',
    });
  });
});

describe('a project task replaces the template task with its id', () => {
  it('keeps template order, marks the source, and adds the project’s own tasks', () => {
    const template = tasks([
      { id: 'plan', name: 'Plan', durationDays: 2 },
      { id: 'fly', name: 'Fly', durationDays: 1, predecessors: fs('plan') },
    ]);
    const network = buildNetwork(
      template,
      tasks([
        { id: 'fly', name: 'Fly twice', durationDays: 2, predecessors: fs('plan') },
        { id: 'extra', name: 'Extra pass', durationDays: 1, predecessors: fs('fly') },
      ]),
    );
    expect(network.map((task) => [task.id, task.source, task.durationDays])).toEqual([
      ['plan', 'template', 2],
      ['fly', 'project', 2],
      ['extra', 'project', 1],
    ]);
  });
});

describe('properties over random finish-to-start networks', () => {
  const randomNetwork = fc
    .array(
      fc.record({ duration: fc.integer({ min: 0, max: 9 }), preds: fc.array(fc.nat(), { maxLength: 3 }) }),
      {
        minLength: 1,
        maxLength: 15,
      },
    )
    .map((rows) =>
      rows.map((row, index) => ({
        id: `t${index}`,
        name: `T${index}`,
        durationDays: row.duration,
        // Only earlier tasks: the network is acyclic by construction.
        predecessors:
          index === 0 ? [] : [...new Set(row.preds.map((p) => p % index))].map((p) => ({ taskId: `t${p}` })),
      })),
    );

  // The longest path, computed the slow and obvious way.
  const longestPath = (list: { durationDays: number; predecessors: { taskId: string }[] }[]): number => {
    const finish: number[] = [];
    list.forEach((task, index) => {
      const start = Math.max(
        0,
        ...task.predecessors.map(({ taskId }) => finish[Number(taskId.slice(1))] as number),
      );
      finish[index] = start + task.durationDays;
    });
    return Math.max(0, ...finish);
  };

  it('lasts exactly the longest path; floats are never negative; free float never exceeds total', () => {
    fc.assert(
      fc.property(randomNetwork, (list) => {
        const plan = computeSchedule(buildNetwork(tasks(list)), everyDay, '2025-01-01');
        expect(plan.durationDays).toBe(longestPath(list));
        for (const task of plan.tasks) {
          expect(task.totalFloat).toBeGreaterThanOrEqual(0);
          expect(task.freeFloat).toBeGreaterThanOrEqual(0);
          expect(task.freeFloat).toBeLessThanOrEqual(task.totalFloat);
        }
        // Each listed chain is as long as the project (a chain of milestones may be shorter only by zero).
        expect(plan.criticalPath.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});
