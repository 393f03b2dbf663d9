// Two classic scripts (IIFE), each one file: the panel first, so that the loader can carry the
// panel's content hash and ask for `panel.js?v=<hash>`, which the chat service caches for a year.
import { readFile, rm } from 'node:fs/promises'
import { build } from 'vite'
import { panelVersionOf } from './files.js'

const root = import.meta.dirname
const outDir = new URL('dist/', import.meta.url)
await rm(outDir, { recursive: true, force: true })

/** @param {string} name @param {Record<string, string>} define */
const bundle = (name, define = {}) => build({
  root,
  logLevel: 'warn',
  configFile: false,
  define,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2020',
    minify: true,
    lib: { entry: `src/${name}.ts`, formats: ['iife'], name: `chatsearch_${name}`, fileName: () => `${name}.js` }
  }
})

await bundle('panel')
const panelVersion = panelVersionOf(await readFile(new URL('panel.js', outDir)))
await bundle('loader', { __PANEL_VERSION__: JSON.stringify(panelVersion) })
