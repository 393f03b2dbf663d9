// Where the built widget is, for the chat service that serves it (GET /widget/v1/<file>).
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'

export const widgetDist = fileURLToPath(new URL('./dist/', import.meta.url))

/**
 * The version the loader asks for the panel with (`panel.js?v=…`): a hash of the panel's content.
 * @param {Uint8Array} content
 */
export const panelVersionOf = (content) => createHash('sha256').update(content).digest('hex').slice(0, 12)
