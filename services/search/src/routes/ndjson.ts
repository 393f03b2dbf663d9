import type { FastifyInstance } from 'fastify'
import { ApiError, utf8Text } from '@chatsearch/shell'
import { BatchError, parseNdjson } from '../ingest/batch.js'

/** Lets the routes of `app` take a batch as NDJSON (application/x-ndjson) of up to `bodyLimit` bytes, as an array. */
export function acceptNdjson (app: FastifyInstance, bodyLimit: number) {
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    try {
      done(null, parseNdjson(utf8Text(request.headers['content-type'], body as Buffer)))
    } catch (err) {
      done(err instanceof BatchError ? new ApiError(err.code, err.message) : err as Error, undefined)
    }
  })
}
