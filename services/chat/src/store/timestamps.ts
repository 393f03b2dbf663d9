import pg from 'pg'

const TIMESTAMPTZ = pg.types.builtins.TIMESTAMPTZ
const asDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date

/**
 * A timestamptz as the API writes it (ISO 8601, UTC, milliseconds: what `Date#toISOString` gives),
 * from PostgreSQL's text. A session in UTC sends `2026-11-25 09:30:00.123456+00`, rewritten here
 * without building a Date: reads return many timestamps, and parsing each one into a Date and
 * formatting it again cost more than the rest of the row. Anything else (another time zone, a
 * year outside 1000–9999, BC) goes through pg's own parser. Both truncate to the millisecond.
 */
export function isoTimestamp (text: string): string {
  if (text.length >= 22 && text.endsWith('+00') && text[4] === '-' && text[10] === ' ' && text[19] !== ':') {
    const fraction = text[19] === '.' ? text.slice(20, -3) : ''
    if (text.length === (fraction === '' ? 22 : 23 + fraction.length)) {
      return `${text.slice(0, 10)}T${text.slice(11, 19)}.${(fraction + '000').slice(0, 3)}Z`
    }
  }
  return asDate(text).toISOString()
}

/** For a query's `types`: its timestamptz columns come back as `isoTimestamp` strings. */
export const isoTimestamps: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => oid === TIMESTAMPTZ
    ? isoTimestamp
    : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser']
}
