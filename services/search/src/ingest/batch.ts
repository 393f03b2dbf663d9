import { parse as parseJson } from 'secure-json-parse'
import { Value } from 'typebox/value'
import { DocumentsBody } from '@chatsearch/contracts'
import { jsonProblem } from '@chatsearch/shell/json-body'
import type { RawBatch } from '../engine/port.js'

/** A body the catalog refused, with the error code it is answered with. */
export class BatchError extends Error {
  constructor (readonly code: 'invalid_request' | 'invalid_document', message: string) {
    super(message)
  }
}

/** NDJSON: one JSON document per line, each parsed as a JSON body is (prototype keys refused); a bad line is named. */
export function parseNdjson (text: string): unknown[] {
  const items: unknown[] = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    try {
      items.push(parseJson(line, { protoAction: 'error', constructorAction: 'error' }))
    } catch (err) {
      const forbidden = /forbidden (prototype|constructor)/i.test((err as Error).message)
      throw new BatchError('invalid_document', forbidden ? `line ${i + 1} holds a key no item may (__proto__, or constructor.prototype)` : `line ${i + 1} is not valid JSON`)
    }
  })
  return items
}

/**
 * The items of a raw batch, checked as Fastify and the shared hooks check any JSON body (the same
 * parser and prototype-poisoning rules, depth and NUL checks, the contract's body schema) and with
 * the same messages: where the bytes are parsed changes nothing for the client.
 */
export function parseBatch ({ format, bytes }: RawBatch): unknown[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  let items: unknown
  if (format === 'ndjson') {
    items = parseNdjson(text)
  } else {
    if (text.length === 0) throw new BatchError('invalid_request', 'the JSON body is empty')
    try {
      items = parseJson(text, { protoAction: 'error', constructorAction: 'error' })
    } catch {
      throw new BatchError('invalid_request', 'the body is not valid JSON')
    }
  }
  const problem = jsonProblem(items)
  if (problem !== undefined) throw new BatchError('invalid_request', problem)
  if (!Value.Check(DocumentsBody, items)) throw new BatchError('invalid_request', 'body must be array')
  return items as unknown[]
}
