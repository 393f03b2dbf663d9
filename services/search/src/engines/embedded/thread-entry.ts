/**
 * The file a worker thread of this folder starts from. Compiled (dist/*.js), the worker is plain
 * JavaScript; run from the TypeScript sources, a small .mjs entry registers tsx in the thread first
 * (module hooks given to the main thread do not reach worker threads on Node 20).
 */
export function threadEntry (name: 'reader-worker' | 'rebuild-worker'): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'mjs' : 'js'
  return new URL(`./${name}.${extension}`, import.meta.url)
}
