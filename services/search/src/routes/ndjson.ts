import type { FastifyInstance } from 'fastify'
import { ApiError } from '@chatsearch/shell'

/** NDJSON: one JSON document per line; a bad line is named in the 400. */
function parseNdjson (text: string): unknown[] {
  const items: unknown[] = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    try {
      items.push(JSON.parse(line))
    } catch {
      throw new ApiError('invalid_document', `line ${i + 1} is not valid JSON`)
    }
  })
  return items
}

/** Lets the routes of `app` take a batch as NDJSON (application/x-ndjson) of up to `bodyLimit` bytes, as an array. */
export function acceptNdjson (app: FastifyInstance, bodyLimit: number) {
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    try {
      done(null, parseNdjson(body as string))
    } catch (err) {
      done(err as Error, undefined)
    }
  })
}
