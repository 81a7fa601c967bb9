// Jest's global setup: say which Node runs the suites, first, so a run's log shows it (an npm
// script runs the pinned Node from node_modules/.bin; test/runtime.test.ts fails off its line).
// Then make the run's internal trust once (internal-trust.ts gives it to every test file).
import { checkRuntime } from '../../scripts/node-runtime.mjs';
import { TEST_TRUST_VARIABLE, makeTestTrust } from './test-trust.ts';

export default async function globalSetup() {
  console.log(`\n${checkRuntime().message}`);
  // Set here, before jest starts its workers, so every worker inherits it.
  process.env[TEST_TRUST_VARIABLE] = JSON.stringify(await makeTestTrust());
}
