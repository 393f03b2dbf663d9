import { Type } from 'typebox'

/** An instant as the API writes it (ISO 8601, in UTC), with what it is in `description`. */
export const timestampOf = (description = 'ISO 8601, UTC') => Type.String({ format: 'date-time', description })

/** An instant as the API writes it: ISO 8601, in UTC. */
export const Timestamp = timestampOf()

/** An instant, or null: `description` says what null means. */
export const timestampOrNull = (description: string) => Type.Union([Timestamp, Type.Null()], { description })
