import { parse } from 'csv-parse/sync'
import { ApiError } from '@chatsearch/shell'
import { hitFieldTypes } from '@chatsearch/contracts'

/**
 * CSV cells are text: numbers and booleans are turned back into JSON values, the rest stays text.
 * A number too long to be finite (400 digits) stays text rather than become null in JSON, and so does
 * one written otherwise than the number's own text (leading zeros, see castCell). A field
 * every search hit types (hitFieldTypes) is read as its type: a title or brand stays text even when
 * it looks like a number (a book called "1984"), and an empty price, rating or in_stock is null (not
 * given), not "" (which the catalog refuses for them).
 */
function castCell (field: string, value: string): unknown {
  const type = (hitFieldTypes as Record<string, string>)[field]
  if (type === 'string') return value
  if (type !== undefined && value.trim() === '') return null
  if (type === 'boolean') return booleanCell(value)
  if (value === 'true') return true
  if (value === 'false') return false
  const number = Number(value)
  if (value.trim() === '' || !/^-?\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(number)) return value
  // A price or rating is a number however it is written ("129.50"); any other cell only when its text
  // is the number's own: "00123" (an id, a SKU, a postcode) stays text, or two ids would become one.
  return type === 'number' || String(number) === value.trim() ? number : value
}

// How spreadsheets write a yes or no: Excel and LibreOffice export TRUE/FALSE, shops' own exports often
// yes/no or 1/0. Only a field typed boolean (in_stock) reads them all; elsewhere "yes" is just text.
const TRUE_CELLS = new Set(['true', 'yes', 'y', '1'])
const FALSE_CELLS = new Set(['false', 'no', 'n', '0'])

/** A boolean field's cell: any common spelling of yes or no, else the text as it is (the search service refuses it, naming the field). */
function booleanCell (value: string): unknown {
  const cell = value.trim().toLowerCase()
  if (TRUE_CELLS.has(cell)) return true
  if (FALSE_CELLS.has(cell)) return false
  return value
}

/**
 * A CSV's first line, checked: each field named once (csv-parse keeps the last of two columns of one
 * name, silently) and none named `__proto__` (which a plain object drops, silently).
 */
function columnsOf (header: string[]): string[] {
  const seen = new Set<string>()
  for (const name of header) {
    if (name === '__proto__') throw new Error('a column is named "__proto__", which no field may be')
    if (seen.has(name)) throw new Error(`the column "${name}" appears twice: one would replace the other`)
    seen.add(name)
  }
  return header
}

/** How a catalog CSV is read, by the console's import and `pnpm cli catalog import` alike: a first line naming the fields. */
export const CATALOG_CSV_OPTIONS = { columns: columnsOf, bom: true, skip_empty_lines: true, trim: true }

/** One CSV record as a catalog item: its cells cast (castCell). */
export const catalogItemOfCsvRecord = (record: Record<string, string>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, castCell(k, v)]))

/** The catalog items of a CSV text whose first line names the fields. */
export function catalogItemsOfCsv (text: string): unknown[] {
  let records: Array<Record<string, string>>
  try {
    records = parse(text, CATALOG_CSV_OPTIONS)
  } catch (err) {
    throw new ApiError('invalid_document', `the CSV does not parse: ${(err as Error).message}`)
  }
  return records.map(catalogItemOfCsvRecord)
}
