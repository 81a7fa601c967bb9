import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from './eslint/package-boundaries.js';
import gatewayLayers from './eslint/gateway-layers.js';

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
    plugins: { fieldops: { rules: { ...boundaries.rules, ...gatewayLayers.rules } } },
    rules: {
      'fieldops/package-boundaries': 'error',
      'fieldops/gateway-layers': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['scripts/**', '**/*.mjs', 'platform/src/main.ts'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: { 'no-console': 'off' },
  },
);
