// The ESLint rule that holds the gateway's folders in their layer order (docs/architecture.md,
// "The gateway's layers"): imports down pass; an import back up, one between siblings, and one
// into a folder the order does not place are refused. The fixtures add the arrows the gateway had
// before the layers (the registry into the portal, sync into the registry, identity into the
// portal) and must fail.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import layers, { GATEWAY_LAYERS, unitOf } from '../../eslint/gateway-layers.js';

const root = join(import.meta.dirname, '..', '..');
const src = join(root, 'gateway', 'src');
const rule = layers.rules['gateway-layers'];
const tester = new RuleTester();

tester.run('gateway-layers', rule, {
  valid: [
    { code: "import { x } from '../endpoint/types.js';", filename: join(src, 'registry/a.ts') },
    { code: "import { x } from '../../endpoint/types.js';", filename: join(src, 'registry/leads/a.ts') },
    { code: "import { x } from './types.js';", filename: join(src, 'endpoint/a.ts') },
    { code: "import { x } from '../openapi/openapi.js';", filename: join(src, 'registry/a.ts') },
    { code: "import { x } from './registry/index.js';", filename: join(src, 'app.ts') },
    { code: "import { x } from '@fieldops/kit';", filename: join(src, 'endpoint/a.ts') },
    { code: "import { x } from '../../src/app.js';", filename: join(root, 'gateway/test/a.test.ts') },
  ],
  invalid: [
    {
      code: "import { portalArtifactPath } from '../portal/deliverables.router.js';",
      filename: join(src, 'registry/project-scenes.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { EndpointDef } from '../registry/leads/leads.js';",
      filename: join(src, 'sync/resource-catalogue.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "export { issueOnce } from '../portal/issue-once.js';",
      filename: join(src, 'identity/portal.router.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "const m = import('../registry/index.js');",
      filename: join(src, 'endpoint/types.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { x } from './app.js';",
      filename: join(src, 'http-edge.ts'),
      errors: [{ messageId: 'sibling' }],
    },
    {
      code: "import { x } from '../unplaced/a.js';",
      filename: join(src, 'registry/a.ts'),
      errors: [{ messageId: 'unplaced' }],
    },
  ],
});

describe('GATEWAY_LAYERS', () => {
  it('places every folder and top file of gateway/src once', () => {
    const units = readdirSync(src)
      .filter((name) => !name.endsWith('.md'))
      .map((name) => unitOf(join(src, name)));
    const placed = GATEWAY_LAYERS.flat();
    expect(new Set(placed).size).toBe(placed.length);
    expect([...units].sort()).toEqual([...placed].sort());
  });
});

describe('npm run lint', () => {
  it('refuses an arrow back up in gateway/src with the repository config', async () => {
    const eslint = new ESLint({ cwd: root });
    const code = [
      '// A registry file reaching back up into the portal.',
      "import { createDeliverablesRouter } from '../portal/deliverables.router.js';",
      'export const router = createDeliverablesRouter;',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(code, { filePath: join(src, 'registry', 'fixture.ts') });
    expect(result!.messages.map((m) => m.ruleId)).toEqual(['fieldops/gateway-layers']);
  });
});
