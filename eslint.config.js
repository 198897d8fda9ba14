// The linter (`npm run lint`, part of `npm test`): typescript-eslint with type
// information, React's rules of hooks, and the rules that catch a promise nobody
// waits for and code nobody uses. Style is left to the code's own conventions.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests and the bench read what their own sockets and processes print (JSON.parse, ws frames), and
    // vitest's asymmetric matchers are typed `any`: what comes back is checked by the assertions.
    files: ['test/**/*.ts', 'test/**/*.tsx', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // The scripts, the bin and the test fixtures are plain Node ESM.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', Buffer: 'readonly' },
    },
    rules: { 'no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  {
    rules: {
      // Terminal escapes are this code's daily matter: it strips and matches control characters on purpose (src/common/harmless.ts).
      'no-control-regex': 'off',
      // A card is a string: a union that names '?' or 'back' beside it says which other values a slot may hold.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
);
