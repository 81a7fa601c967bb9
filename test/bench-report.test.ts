// The bench's table counts the servers' full heap collections per 1 000 requests beside req/s and
// CPU: the evidence that does not depend on where among the segments a collection lands
// (docs/performance.md, "A page's bytes, copied once less"). A cluster reports none: a dash.
import { createHistogram } from 'node:perf_hooks';
import { describe, expect, it } from '@jest/globals';
import { summarize, type Segment } from '../scripts/bench/load.ts';
import type { TargetSpec } from '../scripts/bench/protocol.ts';
import { table, verdicts } from '../scripts/bench/report.ts';

const target = (id: 'plain-get' | 'pipeline-get', baseline?: 'plain-get'): TargetSpec => ({
  id,
  label: id,
  url: 'http://127.0.0.1:1',
  method: 'GET',
  headers: {},
  keyedPost: false,
  ...(baseline ? { baseline, minRatio: 1 } : {}),
});

const segment = (requests: number, fullCollections?: number): Segment => ({
  requests,
  seconds: 2,
  bytes: requests * 100,
  non2xx: 0,
  errors: 0,
  latency: createHistogram(),
  cpuMicros: requests * 2000,
  mainMicros: requests * 1500,
  ...(fullCollections === undefined ? {} : { fullCollections }),
  settleMs: 0,
});

describe('the bench report', () => {
  it('gives full collections per 1 000 requests over all segments, in the table and the verdict', () => {
    const plain = summarize(target('plain-get'), [segment(1000, 1), segment(1000, 2)]);
    const pipeline = summarize(target('pipeline-get', 'plain-get'), [segment(800, 4), segment(800, 4)]);
    expect(plain.fullCollectionsPerThousand).toBe(1.5);
    expect(pipeline.fullCollectionsPerThousand).toBe(5);
    expect(table([plain, pipeline])).toMatch(
      /full GC\/1k[\s\S]*plain-get .* 1\.5 [\s\S]*pipeline-get .* 5\.0 /,
    );
    expect(verdicts([plain, pipeline])[0]).toContain('full collections per 1 000 requests 5.0 against 1.5');
  });

  it('shows a dash when a segment did not count them', () => {
    const row = summarize(target('plain-get'), [segment(1000, 1), segment(1000)]);
    expect(row.fullCollectionsPerThousand).toBeUndefined();
    expect(table([row]).split('\n')[2]).toMatch(/ - /);
  });
});
