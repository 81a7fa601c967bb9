// Jest's global setup: say which Node runs the suites, first, so a run's log shows it (an npm
// script runs the pinned Node from node_modules/.bin; test/runtime.test.ts fails off its line).
import { checkRuntime } from '../../scripts/node-runtime.mjs';

export default function globalSetup() {
  console.log(`\n${checkRuntime().message}`);
}
