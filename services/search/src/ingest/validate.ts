import { DOCUMENT_ID_PATTERN, hitFieldTypes, isOfHitType } from '@chatsearch/contracts'
import type { Document } from '../engine/port.js'

const STRING_ID = new RegExp(DOCUMENT_ID_PATTERN)
const MAX_DEPTH = 16
/**
 * Fields either engine gives a meaning of its own: Meilisearch's vectors and geo points, and the
 * bookkeeping the Meilisearch adapter keeps on each item. Refused by both engines alike.
 */
const RESERVED_FIELDS = new Set(['_vectors', '_geo', '_geojson', '_chatsearch'])

/** A document the catalog refused; the message names the item and the field. */
export class DocumentError extends Error {}

function depth (value: unknown, level = 0): number {
  if (level > MAX_DEPTH || value === null || typeof value !== 'object') return level
  let deepest = level
  for (const v of Object.values(value)) deepest = Math.max(deepest, depth(v, level + 1))
  return deepest
}

/**
 * The id of a catalog item or knowledge document as a string (ids may be sent as integers, as in
 * Meilisearch); `where` names the document for the error message.
 */
export function documentId (id: unknown, where: string): string {
  if (id === undefined) throw new DocumentError(`${where}: missing field "id"`)
  if (typeof id === 'number') {
    if (!Number.isSafeInteger(id) || id < 0) throw new DocumentError(`${where}: field "id" must be a non-negative integer or a string`)
    return String(id)
  }
  if (typeof id === 'string') {
    if (!STRING_ID.test(id)) throw new DocumentError(`${where} (id ${JSON.stringify(id.slice(0, 40))}): field "id" may hold only letters, digits, - and _, 1 to 511 of them`)
    return id
  }
  throw new DocumentError(`${where}: field "id" must be a string or an integer, not ${id === null ? 'null' : typeof id}`)
}

const kindOf = (value: unknown) => Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`

/**
 * Checks one incoming item and returns it with its id as a string. `position` is the item's place
 * in the batch, for the error message.
 */
export function validateDocument (item: unknown, position: number): Document {
  const where = `document ${position}`
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new DocumentError(`${where}: must be a JSON object`)
  const stringId = documentId((item as { id?: unknown }).id, where)
  for (const key of Object.keys(item)) {
    if (key === '' || key.length > 256) throw new DocumentError(`${where} (id ${stringId}): field names must have 1 to 256 characters`)
    if (RESERVED_FIELDS.has(key)) throw new DocumentError(`${where} (id ${stringId}): field "${key}" is reserved by the search engine`)
  }
  if (depth(item) > MAX_DEPTH) throw new DocumentError(`${where} (id ${stringId}): nested deeper than ${MAX_DEPTH} levels`)
  for (const [field, type] of Object.entries(hitFieldTypes)) {
    const value = (item as Record<string, unknown>)[field]
    if (value !== undefined && value !== null && !isOfHitType(type, value)) {
      throw new DocumentError(`${where} (id ${stringId}): field "${field}" must be a ${type} or null, not ${kindOf(value)}: every search hit shows it as a ${type}`)
    }
  }
  return { ...(item as Record<string, unknown>), id: stringId }
}

/** Validates a whole batch before anything is written; of repeated ids the last one wins. */
export function validateBatch (items: unknown[]): Document[] {
  const byId = new Map<string, Document>()
  items.forEach((item, i) => {
    const document = validateDocument(item, i)
    byId.delete(document.id)
    byId.set(document.id, document)
  })
  return [...byId.values()]
}
