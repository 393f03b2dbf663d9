import neostandard from 'neostandard'
import { importX } from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

export default [
  ...neostandard({ ts: true, ignores: ['**/node_modules/**', '**/.data/**', '**/coverage/**', '**/.tap/**', '**/dist/**'] }),
  {
    rules: {
      // A TypeBox schema and its Static type share one name on purpose; TypeScript itself
      // rejects real redeclarations.
      '@typescript-eslint/no-redeclare': 'off'
    }
  },
  {
    // Arrows point one way (STYLE.md): no module may reach itself again through its imports,
    // within a package or across the workspace's packages. Type-only imports are exempt: they
    // vanish at runtime, and the rule cannot see them.
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({
        project: ['tsconfig.base.json', '{apps,packages,services}/*/tsconfig.json'],
        noWarnOnMultipleProjects: true
      })]
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: false }]
    }
  }
]
