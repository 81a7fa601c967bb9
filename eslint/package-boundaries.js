// Why: a workspace is used only through the entry points its package.json exports. This rule refuses
// the two ways around that: a bare import into another package's files (`@fieldops/kit/src/...`) and
// a relative import that climbs out of one workspace into another (`../../kit/src/...`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onImportSources } from './import-sources.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const workspaces = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  .workspaces.map((dir) => path.join(root, dir))
  .sort((a, b) => b.length - a.length);

/** The workspace folder a file belongs to; the repository root for files of no workspace. */
export function workspaceOf(file) {
  return workspaces.find((dir) => file === dir || file.startsWith(dir + path.sep)) ?? root;
}

function check(context, node, source) {
  if (typeof source !== 'string') return;
  if (/^@fieldops\/[^/]+\/src(\/|$)/.test(source)) {
    context.report({ node, messageId: 'intoSrc', data: { source } });
    return;
  }
  if (!source.startsWith('.')) return;
  const from = workspaceOf(context.filename);
  const to = workspaceOf(path.resolve(path.dirname(context.filename), source));
  if (from !== to) {
    context.report({ node, messageId: 'climbs', data: { source, to: path.relative(root, to) || '.' } });
  }
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: "refuse imports into another workspace's files; use its package exports" },
    messages: {
      intoSrc:
        "'{{source}}' reaches into a package's src/: import one of the entry points its package.json exports.",
      climbs:
        "'{{source}}' climbs into the workspace '{{to}}': import it as @fieldops/<name> through its package.json exports.",
    },
    schema: [],
  },
  create: onImportSources(check),
};

export default { rules: { 'package-boundaries': rule } };
