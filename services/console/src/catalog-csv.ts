import { parse } from 'csv-parse/sync'
import { ApiError } from '@chatsearch/shell'

/** CSV cells are text: numbers and booleans are turned back into JSON values, the rest stays text (as `pnpm cli catalog import` does). */
function castCell (value: string): unknown {
  if (value === 'true') return true
  if (value === 'false') return false
  if (value.trim() !== '' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value)
  return value
}

/** The catalog items of a CSV text whose first line names the fields. */
export function catalogItemsOfCsv (text: string): unknown[] {
  let records: Array<Record<string, string>>
  try {
    records = parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: true })
  } catch (err) {
    throw new ApiError('invalid_document', `the CSV does not parse: ${(err as Error).message}`)
  }
  return records.map((record) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, castCell(v)])))
}
