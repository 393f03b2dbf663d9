import { Type } from 'typebox'

/** An instant as the API writes it: ISO 8601, in UTC. */
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' })
