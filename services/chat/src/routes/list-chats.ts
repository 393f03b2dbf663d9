import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import fastJson from 'fast-json-stringify'
import { ChatSummary, ConsumerQuery, ListAllProjectChatsResponse, ListAllProjectConsumerChatsResponse, chatErrors, errorResponses } from '@chatsearch/contracts'
import { consumerChatsQuery, consumersChats, projectChatsQuery, toSummary, type ChatRow, type ConsumerKey } from '../store/chats.js'
import { ROWS_PER_BATCH, readInBatches, streamRows, wholeResult, type RowBatches } from '../store/cursor.js'
import { readBatches } from '../store/read-batches.js'

const stringifyChat = fastJson(ChatSummary)

/**
 * Streams `{"chats":[…]<tail>}` from the database a batch at a time: a project with 100k chats is
 * sent without holding them in memory. `tail` receives the number of chats written.
 */
export async function * chatsJson (batches: RowBatches<ChatRow>, tail: (count: number) => string) {
  // Runs also when the client goes away mid-stream, so the connection is never leaked.
  try {
    let count = 0
    const encode = (rows: ChatRow[]) => rows.map((r) => (count++ === 0 ? '' : ',') + stringifyChat(toSummary(r))).join('')
    yield '{"chats":[' + encode(batches.first)
    for await (const rows of batches.rest()) yield encode(rows)
    yield ']' + tail(count) + '}'
  } finally {
    await batches.release()
  }
}

/** The body of a listing: a string when it fits in one batch (most do), a stream otherwise. */
async function chatsBody (batches: RowBatches<ChatRow>, tail: (count: number) => string) {
  if (batches.complete) {
    let body = ''
    for await (const chunk of chatsJson(batches, tail)) body += chunk
    return body
  }
  return Readable.from(chatsJson(batches, tail), { objectMode: false })
}

export async function listChatsRoutes (app: FastifyInstance) {
  // A consumer's chats fit in one batch but for a rare few: the first batch of each is read with
  // those of concurrent requests, and only a larger result is read again through a cursor.
  const firstChats = readBatches((keys: readonly ConsumerKey[]) => consumersChats(app.pg, keys, ROWS_PER_BATCH + 1))
  async function consumerChats (projectId: string, consumerId: string): Promise<RowBatches<ChatRow>> {
    const first = await firstChats({ projectId, consumerId })
    if (first.length <= ROWS_PER_BATCH) return wholeResult(first)
    return await streamRows<ChatRow>(app.pg, consumerChatsQuery(projectId, consumerId))
  }

  app.get('/listAllProjectChats', {
    config: { rateLimit: 'chat_read' },
    schema: {
      operationId: 'listAllProjectChats',
      tags: ['chat'],
      summary: 'List the chats of the project (metadata only)',
      response: { 200: ListAllProjectChatsResponse, ...errorResponses(...chatErrors.listAllProjectChats) }
    }
  }, async (request, reply) => {
    const stream = await chatsBody(await readInBatches<ChatRow>(app.pg, projectChatsQuery(request.principal.projectId)), () => '')
    return reply.type('application/json; charset=utf-8').send(stream)
  })

  app.get<{ Querystring: ConsumerQuery }>('/listAllProjectConsumerChats', {
    config: { rateLimit: 'chat_read' },
    schema: {
      operationId: 'listAllProjectConsumerChats',
      tags: ['chat'],
      summary: 'List the chats of one consumer',
      querystring: ConsumerQuery,
      response: { 200: ListAllProjectConsumerChatsResponse, ...errorResponses(...chatErrors.listAllProjectConsumerChats) }
    }
  }, async (request, reply) => {
    const consumerId = request.query.consumer_id
    const stream = await chatsBody(await consumerChats(request.principal.projectId, consumerId),
      (count) => `,"consumer_id":${JSON.stringify(consumerId)},"total_count":${count}`)
    return reply.type('application/json; charset=utf-8').send(stream)
  })
}
