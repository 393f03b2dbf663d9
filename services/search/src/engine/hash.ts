import { createHash } from 'node:crypto'
import type { Document } from './port.js'

/** Identifies a document's content: an unchanged re-import is recognised and costs nothing. */
export const documentHash = (document: Document) => createHash('sha256').update(JSON.stringify(document)).digest('base64url')
