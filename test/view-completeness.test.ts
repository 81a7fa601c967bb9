// A stored record's view names every member of its proto message (issue 38): each `to<X>View` of
// the services either `satisfies Complete<Message>` or is built by ts-proto's `fromPartial`, so a
// field added to the message and forgotten in the view fails `npm run typecheck`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { Complete } from '@fieldops/kit/domain';

const root = join(import.meta.dirname, '..');

/** Each exported `to…View` of the services, with the text of its body. */
function views(): { where: string; body: string }[] {
  const files = execFileSync(
    'git',
    ['grep', '-lE', '^export (function|const) to[A-Za-z]*View[^A-Za-z]', '--', 'services/'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .trim()
    .split('\n')
    .filter((file) => /^services\/[^/]+\/src\//.test(file));
  return files.flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const starts = [...text.matchAll(/^export (?:function|const) (to[A-Za-z]*View)\b/gm)];
    return starts.map((start) => {
      const from = start.index ?? 0;
      const end = text.indexOf('\n}', from);
      return { where: `${file} ${start[1]}`, body: text.slice(from, end === -1 ? undefined : end + 2) };
    });
  });
}

describe('views of stored records', () => {
  it('name every member of their message', () => {
    const found = views();
    expect(found.length).toBeGreaterThan(15);
    const incomplete = found
      .filter(({ body }) => !/satisfies Complete<|\.fromPartial\(/.test(body))
      .map(({ where }) => where);
    expect(incomplete).toEqual([]);
  });

  it('Complete<T> refuses an object that leaves out an optional member', () => {
    interface Message {
      id: string;
      leadId?: string | undefined;
    }
    const named = { id: 'd1', leadId: undefined } satisfies Complete<Message>;
    // @ts-expect-error leadId is optional in Message, and Complete asks for it all the same.
    const forgotten = { id: 'd1' } satisfies Complete<Message>;
    expect([named.id, forgotten.id]).toEqual(['d1', 'd1']);
  });
});
