// The permission table (charts/fieldops/topology.yaml `permissions`) is the one source of what
// each process kind may touch: the chart's commands, the cluster's processes and the table in
// docs/security.md must all say what scripts/permissions.mjs derives from it. The fence itself
// (Node refusing what is not granted, in running processes) is test/cluster/permissions.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { clusterProcesses, processGrants } from '../../scripts/cluster/plan.mjs';
import { sourceFolders } from '../../scripts/source-folders.mjs';
import {
  documentedTable,
  grantsOf,
  IMAGE_PATH,
  nodeFlags,
  permissionsTable,
  SECURITY_DOC,
  tableContent,
} from '../../scripts/permissions.mjs';
import { readTopology } from '../../scripts/topology.mjs';
import type { Rendered } from './chart-render.ts';
import { RELEASE, render, root } from './chart-render.ts';

const topology = readTopology();
const component = (name: string) => name.slice(`${RELEASE}-fieldops-`.length);

/** Where the image keeps what the table names (Dockerfile, templates/deployment.yaml). */
const chartPlaces = (embedded: boolean, scratch: boolean) => ({
  code: ['/app/dist', '/app/node_modules'],
  dataDir: embedded ? '/var/lib/fieldops' : '/tmp/fieldops',
  ...(scratch ? { scratchDir: '/var/scratch' } : {}),
  awsConfig: '/home/node/.aws',
  path: IMAGE_PATH,
  embeddedStore: embedded,
});

const commands = (release: Rendered) =>
  Object.fromEntries(
    release.all('Deployment').map((deployment) => {
      const container: IContainer = deployment.spec!.template.spec!.containers[0]!;
      return [component(deployment.metadata!.name!), container.command!];
    }),
  );

const renders: Record<string, Rendered> = {};
// Renders on a loaded CI machine take longer than the default 30 s (see chart.test.ts).
beforeAll(async () => {
  renders['on MongoDB'] = await render({ files: ['values-production.yaml'] });
  renders['on embedded stores'] = await render({
    files: ['values-small.yaml'],
    values: { store: { embedded: true } },
  });
}, 240_000);

describe.each(['on MongoDB', 'on embedded stores'])('the chart %s', (name) => {
  test("runs every kind with node --permission and exactly its kind's grants", () => {
    const embedded = name === 'on embedded stores';
    const rendered = commands(renders[name]!);
    expect(Object.keys(rendered).length).toBeGreaterThan(0);
    for (const [kindName, command] of Object.entries(rendered)) {
      const kind = topology.find((k) => k.component === kindName)!;
      const grants = grantsOf(kind, chartPlaces(embedded, kind.scratch));
      expect({ kind: kindName, command }).toEqual({
        kind: kindName,
        command: ['node', '--enable-source-maps', ...nodeFlags(grants), `/app/dist/${kind.process}.mjs`],
      });
    }
  });

  test('gives only the capture workers programs, and addons only to embedded stores', () => {
    const rendered = commands(renders[name]!);
    const holders = (flag: string) =>
      Object.keys(rendered)
        .filter((kind) => rendered[kind]!.includes(flag))
        .sort();
    expect(holders('--allow-child-process')).toEqual(['capture-worker']);
    expect(holders('--allow-worker')).toEqual([]);
    expect(holders('--allow-wasi')).toEqual([]);
    const stores = topology.filter((k) => k.permissions.data.length > 0 && k.component in rendered);
    expect(holders('--allow-addons')).toEqual(
      name === 'on embedded stores' ? stores.map((k) => k.component).sort() : [],
    );
    for (const command of Object.values(rendered)) {
      const writes = command.filter((arg) => arg.startsWith('--allow-fs-write='));
      // Nothing under the code, nothing at the root of the data or of /tmp.
      for (const write of writes)
        expect(write).toMatch(
          /^--allow-fs-write=(\/var\/lib\/fieldops|\/tmp\/fieldops)\/[a-z-]+(\/\*)?$|^--allow-fs-write=\/var\/scratch(\/\*)?$/,
        );
    }
  });
});

describe('the cluster', () => {
  const shared = { dataDir: '/tmp/cluster' };
  test('grants each process its own stores and scratch space to write, nothing else', () => {
    const byName = Object.fromEntries(
      clusterProcesses({ workers: 2 }).map((p) => [p.name, processGrants(p, shared)]),
    );
    expect(byName['gateway']!.write).toEqual([
      '/tmp/cluster/gateway',
      '/tmp/cluster/gateway/*',
      '/tmp/cluster/sync',
      '/tmp/cluster/sync/*',
    ]);
    expect(byName['measurements']!.write).toEqual([
      '/tmp/cluster/measurements',
      '/tmp/cluster/measurements/*',
    ]);
    // Each worker its own scratch space, as each pod has its own volume.
    expect(byName['capture-worker-1']!.write).toEqual([
      '/tmp/cluster/scratch/capture-worker-1',
      '/tmp/cluster/scratch/capture-worker-1/*',
    ]);
    expect(byName['capture-worker-2']!.write).toEqual([
      '/tmp/cluster/scratch/capture-worker-2',
      '/tmp/cluster/scratch/capture-worker-2/*',
    ]);
    const spawners = Object.values(byName).filter((g) => g.childProcess);
    expect(spawners.map((g) => g.kind)).toEqual(['capture-worker', 'capture-worker']);
    // Its code: the workspaces' sources (Node's type stripping runs them) and node_modules, where
    // node_modules/@fieldops/* only link to the workspaces.
    expect(byName['crm']!.read.filter((path) => path.startsWith(root))).toEqual([
      ...sourceFolders(),
      join(root, 'node_modules'),
    ]);
  });
});

test('docs/security.md shows the table topology.yaml holds (node scripts/permissions.mjs --docs)', () => {
  const doc = readFileSync(SECURITY_DOC, 'utf8');
  expect(tableContent(documentedTable(doc))).toBe(tableContent(permissionsTable()));
  // And the table is not empty: one row per kind.
  expect(tableContent(documentedTable(doc)).split('\n')).toHaveLength(topology.length + 2);
});
