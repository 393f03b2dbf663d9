// Loads a worker thread's TypeScript module when the service runs from its sources (tests, `pnpm
// start`); compiled, the threads load dist/*.js and never come here. Plain JavaScript: it runs before
// anything can load TypeScript in the thread.
//
// Module hooks given to the main thread (tsx's) do not reach worker threads on Node 20, and tsx
// registered in a thread runs its hooks on one more thread, through which every import of the thread
// passes: about 1.4 s of CPU a thread here, and a test suite starts hundreds of threads. So the
// thread's module and the workspace files it imports are bundled once with esbuild (what tsx itself
// compiles with) into one file kept in node_modules/.cache, which the thread imports as plain
// JavaScript (about 0.3 s). Third-party packages stay outside the bundle, imported from where they
// are installed. The bundle is made again when any file in it changes, and not used when its code
// reads `import.meta` (the bundle lives elsewhere, so its URL would differ): tsx then
// loads the thread's module as before, as it does when esbuild is missing or the cache cannot be
// written.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const cacheDir = fileURLToPath(new URL('../node_modules/.cache/chatsearch/threads/', import.meta.url))

/** Imports the TypeScript module at `entry` (a file URL) in this thread: its namespace. */
export async function importSource (entry) {
  let bundle
  try {
    bundle = await bundleOf(fileURLToPath(entry))
  } catch {
    // No esbuild, a cache that cannot be written, a file it cannot bundle: tsx loads the module.
  }
  if (bundle !== undefined) return await import(pathToFileURL(bundle).href)
  const { register } = await import('tsx/esm/api')
  register()
  return await import(entry.href)
}

/** A digest of the files' names and contents. */
function digestOf (files) {
  const hash = createHash('sha256')
  for (const file of files) hash.update(file).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

/** Writes whole or not at all: another thread or process may read the file meanwhile. */
function writeWhole (file, content) {
  const partial = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.partial`
  writeFileSync(partial, content)
  renameSync(partial, file)
}

/** The up-to-date bundle of `file`, made when missing or stale; undefined when it cannot be bundled. */
async function bundleOf (file) {
  const name = `${basename(file, '.ts')}-${createHash('sha256').update(file).digest('hex').slice(0, 12)}`
  const manifestFile = resolve(cacheDir, `${name}.json`)
  let manifest
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'))
    if (manifest.digest === digestOf(manifest.inputs) && manifest.externals.every((e) => existsSync(e)) &&
      (manifest.bundle === null || existsSync(manifest.bundle))) return manifest.bundle ?? undefined
  } catch {
    // No manifest yet, or one naming a file that is gone: bundle again.
  }
  const { default: esbuild } = await import('esbuild')
  const externals = new Set()
  let result
  try {
    result = await esbuild.build({
      entryPoints: [file],
      absWorkingDir: dirname(file),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      keepNames: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [{
        name: 'packages-where-installed',
        setup (build) {
          // The workspace's own packages are bundled; any other package is imported by the path it
          // resolves to from the importing file, as pnpm lets only that file's package reach it.
          build.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.path.startsWith('@chatsearch/') || args.pluginData === 'as-is') return undefined
            if (args.path.startsWith('node:')) return { external: true }
            const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'as-is' })
            if (found.errors.length > 0) return { errors: found.errors }
            if (found.external) return { external: true }
            externals.add(found.path)
            return { path: found.path, external: true }
          })
        }
      }]
    })
  } finally {
    await esbuild.stop()
  }
  const inputs = Object.keys(result.metafile.inputs).map((input) => resolve(dirname(file), input)).sort()
  const digest = digestOf(inputs)
  const code = result.outputFiles[0].text
  // What is left after esbuild dropped the code nothing calls.
  const readsOwnUrl = code.includes('import.meta')
  mkdirSync(cacheDir, { recursive: true })
  const bundle = readsOwnUrl ? null : resolve(cacheDir, `${name}-${digest.slice(0, 16)}.mjs`)
  if (bundle !== null) writeWhole(bundle, code)
  writeWhole(manifestFile, JSON.stringify({ inputs, digest, externals: [...externals].sort(), bundle }))
  // The bundle of the files as they were before: nothing reads it any more.
  if (typeof manifest?.bundle === 'string' && manifest.bundle !== bundle) rmSync(manifest.bundle, { force: true })
  return bundle ?? undefined
}
