/**
 * The file a worker thread starts from: `name` next to the module at `beside` (its import.meta.url).
 * Compiled (dist/*.js), the worker is plain JavaScript; run from the TypeScript sources, a small .mjs
 * entry registers tsx in the thread first (module hooks given to the main thread do not reach worker
 * threads on Node 20).
 */
export function threadEntry (beside: string, name: string): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'mjs' : 'js'
  return new URL(`./${name}.${extension}`, beside)
}
