import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { createInterface } from 'node:readline'
import { parse } from 'csv-parse'
import { parse as parseJson } from 'secure-json-parse'
import { CATALOG_CSV_OPTIONS, catalogItemOfCsvRecord } from '@chatsearch/console'

async function * jsonLines (file: string): AsyncGenerator<unknown> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity })
  let n = 0
  for await (const line of lines) {
    n++
    if (line.trim() === '') continue
    try {
      yield parseJson(line, { protoAction: 'error', constructorAction: 'error' })
    } catch {
      throw new Error(`${file} line ${n}: not valid JSON (or holds a __proto__ key)`)
    }
  }
}

async function * jsonArray (file: string): AsyncGenerator<unknown> {
  let parsed: unknown
  try {
    parsed = parseJson(await readFile(file, 'utf8'), { protoAction: 'error', constructorAction: 'error' })
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`)
  }
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of items`)
  yield * parsed
}

async function * csvRows (file: string): AsyncGenerator<unknown> {
  // The console's import reads a CSV by the same rules.
  const parser = createReadStream(file).pipe(parse(CATALOG_CSV_OPTIONS))
  for await (const record of parser as AsyncIterable<Record<string, string>>) yield catalogItemOfCsvRecord(record)
}

/**
 * The items of a catalog file, one at a time: `.jsonl`/`.ndjson` and `.csv` are streamed line by line;
 * a `.json` array is read whole.
 */
export function readCatalogFile (file: string): AsyncGenerator<unknown> {
  switch (extname(file).toLowerCase()) {
    case '.jsonl':
    case '.ndjson':
      return jsonLines(file)
    case '.json':
      return jsonArray(file)
    case '.csv':
      return csvRows(file)
    default:
      throw new Error(`${file}: unsupported file type; use .json, .jsonl (or .ndjson) or .csv`)
  }
}
