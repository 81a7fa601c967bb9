import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from './eslint/package-boundaries.js';
import folderLayers from './eslint/folder-layers.js';

/** The browser globals the console's script uses (gateway/src/console/console.browser.js). */
const BROWSER_GLOBALS = Object.fromEntries(
  [
    'document',
    'fetch',
    'navigator',
    'getSelection',
    'URLSearchParams',
    'location',
    'history',
    'setTimeout',
    'crypto',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      'proto/src/gen/',
      'test/support/api.gen.ts',
      'coverage/',
      '.data/',
      '**/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { fieldops: { rules: { ...boundaries.rules, ...folderLayers.rules } } },
    rules: {
      'fieldops/package-boundaries': 'error',
      'fieldops/folder-layers': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // The console's browser script: a classic script (no modules) on the browser globals it uses.
    files: ['gateway/src/console/console.browser.js'],
    languageOptions: { sourceType: 'script', globals: BROWSER_GLOBALS },
  },
  {
    files: ['scripts/**', '**/*.mjs', 'platform/src/main.ts'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: { 'no-console': 'off' },
  },
);
