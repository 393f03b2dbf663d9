import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['**/node_modules/**', '**/.data/**', '**/coverage/**', '**/.tap/**', '**/dist/**'] }),
  {
    rules: {
      // A TypeBox schema and its Static type share one name on purpose; TypeScript itself
      // rejects real redeclarations.
      '@typescript-eslint/no-redeclare': 'off'
    }
  }
]
