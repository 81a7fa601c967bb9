// The ESLint rule that keeps packages behind their declared exports (docs/architecture.md,
// "Package boundaries"): it must refuse both ways around them and let everything else through.
import { join } from 'node:path';
import { RuleTester } from 'eslint';
import boundaries from '../../eslint/package-boundaries.js';

const root = join(import.meta.dirname, '..', '..');
const rule = boundaries.rules['package-boundaries'];
const tester = new RuleTester();

tester.run('package-boundaries', rule, {
  valid: [
    { code: "import { x } from '@fieldops/kit';", filename: join(root, 'services/crm/src/a.ts') },
    {
      code: "import { x } from '../leads/lead.model.js';",
      filename: join(root, 'services/crm/src/deals/a.ts'),
    },
    { code: "import { x } from '../src/index.js';", filename: join(root, 'services/crm/test/a.test.ts') },
    {
      code: "import { x } from '../../scripts/build-bundles.mjs';",
      filename: join(root, 'test/deploy/a.test.ts'),
    },
  ],
  invalid: [
    {
      code: "import { x } from '@fieldops/kit/src/errors';",
      filename: join(root, 'services/crm/src/a.ts'),
      errors: [{ messageId: 'intoSrc' }],
    },
    {
      code: "import { x } from '../../kit/src/errors.js';",
      filename: join(root, 'services/crm/src/a.ts'),
      errors: [{ messageId: 'climbs' }],
    },
    {
      code: "export { x } from '../gateway/src/app.js';",
      filename: join(root, 'test/a.test.ts'),
      errors: [{ messageId: 'climbs' }],
    },
    {
      code: "const m = import('../../../gateway/src/app.js');",
      filename: join(root, 'services/crm/src/a.ts'),
      errors: [{ messageId: 'climbs' }],
    },
  ],
});
