// The ESLint rule that holds the gateway's and each service's folders in their layer order
// (docs/architecture.md, "The gateway's layers", "The services' layers"): imports down pass; an
// import back up, one between siblings, and one into a folder the order does not place are
// refused. The fixtures add the arrows the gateway and the services had before the layers (the
// registry into the portal, crm's billing helpers into invoices, capture's sessions into runs, the
// kit's events into the outbox) and must fail.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import layers, { FOLDER_LAYERS, GATEWAY_LAYERS, SERVICE_LAYERS, unitOf } from '../../eslint/folder-layers.js';

const root = join(import.meta.dirname, '..', '..');
const src = join(root, 'gateway', 'src');
const rule = layers.rules['folder-layers'];
const service = (name: string, file: string) => join(root, 'services', name, 'src', file);
const tester = new RuleTester();

tester.run('folder-layers', rule, {
  valid: [
    { code: "import { x } from '../endpoint/types.js';", filename: join(src, 'registry/a.ts') },
    { code: "import { x } from '../../endpoint/types.js';", filename: join(src, 'registry/leads/a.ts') },
    { code: "import { x } from './types.js';", filename: join(src, 'endpoint/a.ts') },
    { code: "import { x } from '../openapi/openapi.js';", filename: join(src, 'registry/a.ts') },
    { code: "import { x } from './registry/index.js';", filename: join(src, 'app.ts') },
    { code: "import { x } from '@fieldops/kit';", filename: join(src, 'endpoint/a.ts') },
    { code: "import { x } from '../../src/app.js';", filename: join(root, 'gateway/test/a.test.ts') },
    { code: "import { x } from '../billing/recipient.js';", filename: service('crm', 'bookings/a.ts') },
    {
      code: "import { x } from './invoices/invoices.service.js';",
      filename: service('crm', 'billing-services.ts'),
    },
    { code: "import { x } from '../session-model/manifest.js';", filename: service('capture', 'runs/a.ts') },
    { code: "import { x } from '../files/fd-sync.js';", filename: service('kit', 'store/a.ts') },
    {
      code: "import { x } from '../src/billing/recipient.js';",
      filename: join(root, 'services/crm/test/a.test.ts'),
    },
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
    // The services' arrows before their layers (issue 38).
    {
      code: "import { openInvoice } from '../invoices/invoice-client.service.js';",
      filename: service('crm', 'billing/billing-services.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { customerBilling } from '../customer-service/customer-billing.js';",
      filename: service('crm', 'customers/related-records.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { toBookingView } from '../bookings/booking.model.js';",
      filename: service('crm', 'mail/a.ts'),
      errors: [{ messageId: 'sibling' }],
    },
    {
      code: "import { startRun } from '../runs/new-run.js';",
      filename: service('capture', 'sessions/finalize.plan.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { loadProjectNetwork } from '../tasks/project-network.js';",
      filename: service('projects', 'schedule/a.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { enqueue } from '../dispatch/dispatch-queue.js';",
      filename: service('webhooks', 'deliveries/deliveries.service.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "export { openRelayedStore } from '../process/relayed-store.js';",
      filename: service('kit', 'events/index.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { fitPlane } from '../quantities/region-volume.js';",
      filename: service('measure-engine', 'surface/grid.ts'),
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { x } from './unplaced/a.js';",
      filename: service('audit', 'ledger.ts'),
      errors: [{ messageId: 'unplaced' }],
    },
  ],
});

describe('FOLDER_LAYERS', () => {
  it.each(Object.keys(FOLDER_LAYERS))('places every folder and top file of %s once', (folder) => {
    const dir = join(root, folder);
    // A folder and a file of one name (measure-engine's types/ and types.ts) are one unit.
    const units = new Set(
      readdirSync(dir)
        .filter((name) => !name.endsWith('.md') && !name.endsWith('.d.ts'))
        .map((name) => unitOf(join(dir, name))),
    );
    const placed = FOLDER_LAYERS[folder]!.flat();
    expect(new Set(placed).size).toBe(placed.length);
    expect([...units].sort()).toEqual([...placed].sort());
  });

  it('layers the gateway and every service with a src/ (survey-fixtures is test data, unlayered)', () => {
    const services = readdirSync(join(root, 'services')).filter((name) => name !== 'survey-fixtures');
    expect(Object.keys(SERVICE_LAYERS).sort()).toEqual(services.sort());
    expect(FOLDER_LAYERS['gateway/src']).toBe(GATEWAY_LAYERS);
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
    expect(result!.messages.map((m) => m.ruleId)).toEqual(['fieldops/folder-layers']);
  });

  it('refuses an arrow back up in a service with the repository config', async () => {
    const eslint = new ESLint({ cwd: root });
    const code = [
      "// crm's billing helpers reaching back up into invoices.",
      "import { openInvoice } from '../invoices/invoice-client.service.js';",
      'export const open = openInvoice;',
      '',
    ].join('\n');
    const filePath = service('crm', 'billing/fixture.ts');
    const [result] = await eslint.lintText(code, { filePath });
    expect(result!.messages.map((m) => m.ruleId)).toEqual(['fieldops/folder-layers']);
  });
});
