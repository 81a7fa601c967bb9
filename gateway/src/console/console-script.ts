// The console's script as the router serves it: console.browser.js beside this file, a real
// browser script that ESLint and the type checker read (gateway/src/console/tsconfig.json), read
// once at start. The image's bundle has no source folder, so scripts/build-bundles.mjs replaces this
// module with the file's text inlined (TEXT_ASSETS there); both serve the same bytes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CONSOLE_SCRIPT: string = readFileSync(join(import.meta.dirname, 'console.browser.js'), 'utf8');
