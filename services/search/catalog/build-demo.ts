/**
 * Regenerates demo-catalog.json, the catalog imported into the demo project on first start:
 *
 *   node --import tsx services/search/catalog/build-demo.ts
 *
 * relevance.json and assistant-set.json are judged against this file, so regenerating it with a
 * changed generator means judging them again.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { generateCatalog } from './generate.js'
import type { Product } from './generate.js'

export const DEMO_SEED = 42
export const DEMO_COUNT = 1200
export const demoCatalogFile = fileURLToPath(new URL('./demo-catalog.json', import.meta.url))

/** A JSON array with one product per line, so that diffs stay readable. */
export function catalogJson (products: readonly Product[]): string {
  return '[\n' + products.map((p) => JSON.stringify(p)).join(',\n') + '\n]\n'
}

export function demoCatalogJson (): string {
  return catalogJson(generateCatalog(DEMO_COUNT, DEMO_SEED))
}

const invoked = process.argv[1] !== undefined && pathToFileURL(resolve(process.argv[1])).href === import.meta.url
if (invoked) {
  writeFileSync(demoCatalogFile, demoCatalogJson())
  console.log(`wrote ${DEMO_COUNT} products (seed ${DEMO_SEED}) to ${demoCatalogFile}`)
}
