// Where the built widget is, for the chat service that serves it (GET /widget/v1/<file>).
import { fileURLToPath } from 'node:url'

export const widgetDist = fileURLToPath(new URL('./dist/', import.meta.url))
/** The files the chat service serves, by their public name. */
export const widgetFiles = ['loader.js', 'panel.js']
