import { Readable, pipeline } from 'node:stream'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import fastJson from 'fast-json-stringify'
import { Type } from 'typebox'
import { stringify } from 'csv-stringify'
import {
  AdminChatDetail, AdminChatList, AdminChatSummary, AdminMessage, AdminChatParams, AdminChatsQuery, AdminDeleted, AdminExportQuery, AdminHeaders,
  adminChatsLimitDefault, bodyErrors, chatErrors, errorResponses, limits, type AdminChatsQuery as ChatsQuery, type AdminExportQuery as ExportQuery
} from '@chatsearch/contracts'
import { ApiError, integerQuery, textProblem } from '@chatsearch/shell'
import { adminChat, adminChatPage, adminChatsQuery, positionOf, toAdminSummary, type AdminChatRow, type ChatFilters, type ChatPosition } from '../store/admin-chats.js'
import { deleteChat } from '../store/chats.js'
import { messagesOfChats, readMessages } from '../store/messages.js'
import { readInBatches, type RowBatches } from '../store/cursor.js'
import { streamMessages } from './message-stream.js'

const stringifyDetail = fastJson(AdminChatDetail)
const stringifySummary = fastJson(AdminChatSummary)
const stringifyAdminMessage = fastJson(AdminMessage)

/**
 * A moment the listing can compare with: a valid date of the years 1–9999 (what ISO 8601 writes in
 * four digits, well inside PostgreSQL's range). The schema's date-time format lets through what no
 * Date holds, such as the leap second "23:59:60".
 */
function momentOf (value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined
  const date = new Date(value)
  const year = date.getUTCFullYear()
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) throw new ApiError('invalid_request', `${name} is not a date-time this listing can compare with (years 1 to 9999, seconds 0 to 59)`)
  return date
}

function filtersOf (query: Omit<ChatsQuery, 'limit' | 'cursor'>): ChatFilters {
  return {
    consumerId: query.consumer_id,
    classification: query.classification,
    needsHuman: query.needs_human === undefined ? undefined : query.needs_human === 'true',
    from: momentOf(query.from, 'from'),
    to: momentOf(query.to, 'to')
  }
}

/** The position after a page's last chat as an opaque token: base64url of its JSON. */
const encodeCursor = (p: ChatPosition) => Buffer.from(JSON.stringify([p.needsHuman, p.lastUpdatedAt.toISOString(), p.chatId])).toString('base64url')

function decodeCursor (cursor: string): ChatPosition {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    parsed = undefined
  }
  // The client holds the token: what it decodes to is checked as a query would be before it reaches PostgreSQL.
  if (Array.isArray(parsed) && parsed.length === 3) {
    const [needsHuman, at, chatId] = parsed as unknown[]
    const lastUpdatedAt = new Date(typeof at === 'string' ? at : NaN)
    const year = lastUpdatedAt.getUTCFullYear()
    if (typeof needsHuman === 'boolean' && typeof chatId === 'string' && chatId.length <= limits.idMaxChars && textProblem(chatId) === undefined &&
      !Number.isNaN(lastUpdatedAt.getTime()) && year >= 1 && year <= 9999) return { needsHuman, lastUpdatedAt, chatId }
  }
  throw new ApiError('invalid_request', 'cursor is not a next_cursor of this listing: pass it back as it was received')
}

/** One message of an export as a CSV record (the columns of CSV_COLUMNS). */
function csvRecord (chat: AdminChatRow, seq: number, message: AdminMessage) {
  const author = message.author === undefined ? '' : message.author.kind === 'human' ? `human:${message.author.username}` : 'assistant'
  return {
    chat_id: chat.id,
    consumer_id: chat.consumer_id,
    seq,
    role: message.role,
    author,
    classification: message.classification ?? '',
    content: message.content,
    citations: message.citations === undefined ? '' : JSON.stringify(message.citations),
    created_at: message.timestamp,
    decision_route: message.decision?.route ?? '',
    feedback_rating: message.feedback?.rating ?? '',
    feedback_comment: message.feedback?.comment ?? ''
  }
}
const CSV_COLUMNS = ['chat_id', 'consumer_id', 'seq', 'role', 'author', 'classification', 'content', 'citations', 'created_at', 'decision_route', 'feedback_rating', 'feedback_comment']

/** The chats of the export with their messages, a batch of chats (and one query of messages) at a time. */
async function * exportedChats (app: FastifyInstance, projectId: string, batches: RowBatches<AdminChatRow>) {
  // Runs also when the client goes away mid-stream, so the connection is never leaked.
  try {
    const withMessages = async function * (rows: AdminChatRow[]) {
      if (rows.length === 0) return
      const messages = await messagesOfChats(app.pg, projectId, rows.map((r) => r.id))
      for (const row of rows) yield { row, messages: messages.get(row.id) ?? [] }
    }
    yield * withMessages(batches.first)
    for await (const rows of batches.rest()) yield * withMessages(rows)
  } finally {
    await batches.release()
  }
}

async function * jsonExport (chats: ReturnType<typeof exportedChats>) {
  let first = true
  yield '['
  for await (const { row, messages } of chats) {
    yield (first ? '' : ',') + stringifyDetail({ chat: toAdminSummary(row), messages })
    first = false
  }
  yield ']'
}

async function * csvRecords (chats: ReturnType<typeof exportedChats>) {
  for await (const { row, messages } of chats) {
    for (const [seq, message] of messages.entries()) yield csvRecord(row, seq, message)
  }
}

export async function adminChatRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const notFound = (chatId: string) => new ApiError('chat_not_found', `chat ${chatId} does not exist`)

  api.get('/admin/chats', {
    config: { rateLimit: 'admin' },
    preValidation: integerQuery('limit'),
    schema: {
      operationId: 'adminListChats',
      tags: ['admin'],
      summary: 'The project\'s chats for its team: those waiting for a person first, then the most recently updated, a page at a time',
      description: 'Service token only (`Authorization: Bearer <SERVICE_TOKEN>` and `X-Project-Id`). Test chats are listed, flagged `is_test`. Pass `next_cursor` back as `cursor`, with the same filters, for the next page.',
      querystring: AdminChatsQuery,
      headers: AdminHeaders,
      response: { 200: AdminChatList, ...errorResponses(...chatErrors.adminListChats) }
    }
  }, async (request) => {
    const { limit = adminChatsLimitDefault, cursor, ...filters } = request.query
    const after = cursor === undefined ? undefined : decodeCursor(cursor)
    const rows = await adminChatPage(app.pg, request.principal.projectId, filtersOf(filters), limit + 1, after)
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    return { chats: page.map(toAdminSummary), next_cursor: rows.length > limit && last !== undefined ? encodeCursor(positionOf(last)) : null }
  })

  // Untyped replies: the body is a stream, not the JSON the schema describes.
  app.get<{ Querystring: ExportQuery }>('/admin/chats/export', {
    config: { rateLimit: 'admin' },
    schema: {
      operationId: 'adminExportChats',
      tags: ['admin'],
      summary: 'Every chat passing the filters with its messages, streamed as a JSON or CSV attachment',
      description: 'Service token only. `format=json`: an array of `{chat, messages}` in the listing\'s order. `format=csv`: a header row, then one row per message with the columns chat_id, consumer_id, seq (0 for a chat\'s first message), role, author (`assistant`, `human:<username>`, empty for the shopper), classification, content, citations (their JSON), created_at, decision_route (the route of the assistant\'s decision; empty on other messages and on those stored before decisions were kept), feedback_rating (`up` or `down` when the customer rated the reply, else empty), feedback_comment; quoted as RFC 4180 says, and a text cell opening with =, +, -, @, a tab or a carriage return gets a leading `\'` so that a spreadsheet shows it rather than running it as a formula. The JSON export carries each assistant message\'s whole `decision`.',
      querystring: AdminExportQuery,
      headers: AdminHeaders,
      response: {
        200: {
          description: 'The export, as an attachment',
          content: { 'application/json': { schema: Type.Array(AdminChatDetail) }, 'text/csv': { schema: Type.String() } }
        },
        ...errorResponses(...chatErrors.adminExportChats)
      }
    }
  }, async (request, reply) => {
    const { format, ...filters } = request.query
    const { projectId } = request.principal
    // The first batch is read before anything is sent: a failing query is still an error response.
    const batches = await readInBatches<AdminChatRow>(app.pg, adminChatsQuery(projectId, filtersOf(filters)), 500)
    const filename = `chats-${new Date().toISOString().slice(0, 10)}.${format}`
    reply.header('content-disposition', `attachment; filename="${filename}"`)
    if (format === 'json') {
      return await reply.type('application/json; charset=utf-8').send(Readable.from(jsonExport(exportedChats(app, projectId, batches)), { objectMode: false }))
    }
    // csv-stringify rather than our own quoting: fields holding commas, quotes or line breaks are
    // its tested business (RFC 4180), and it is a Transform stream, so backpressure holds. Shoppers
    // write the messages, ids and comments: escape_formulas puts a ' before a text cell opening with
    // = + - @, a tab or a CR, which a spreadsheet would otherwise run as a formula (OWASP's CSV injection).
    const csv = pipeline(Readable.from(csvRecords(exportedChats(app, projectId, batches))), stringify({ header: true, columns: CSV_COLUMNS, record_delimiter: 'windows', escape_formulas: true }), (err) => {
      if (err !== undefined && err !== null) request.log.warn({ err }, 'the chat export stopped before its end')
    })
    return await reply.type('text/csv; charset=utf-8').send(csv)
  })

  api.get('/admin/chats/:chat_id', {
    config: { rateLimit: 'admin' },
    schema: {
      operationId: 'adminReadChat',
      tags: ['admin'],
      summary: 'One chat for the project\'s team: its summary and the whole conversation, with citations, authors and the assistant\'s decisions',
      description: 'Service token only (`Authorization: Bearer <SERVICE_TOKEN>` and `X-Project-Id`). Each of the assistant\'s own messages carries its `decision` (route, handoff reason, the evidence weighed with its scores), which the shopper\'s routes never show; a team member\'s answer, and a message stored before decisions were kept, has none.',
      params: AdminChatParams,
      headers: AdminHeaders,
      response: { 200: AdminChatDetail, ...errorResponses(...chatErrors.adminReadChat) }
    }
  }, async (request, reply) => {
    const { projectId } = request.principal
    const chatId = request.params.chat_id
    const [chat, pages] = await Promise.all([adminChat(app.pg, projectId, chatId), readMessages(app.pg, projectId, chatId)])
    if (chat === undefined) throw notFound(chatId)
    if (pages.complete) return { chat: toAdminSummary(chat), messages: pages.first }
    const head = `{"chat":${stringifySummary(toAdminSummary(chat))},"messages":`
    // The same AdminChatDetail, written a page at a time: a reply typed by the schema cannot say so.
    return await (reply as FastifyReply).type('application/json; charset=utf-8').send(streamMessages(pages, stringifyAdminMessage, head, '}'))
  })

  api.delete('/admin/chats/:chat_id', {
    config: { rateLimit: 'admin' },
    schema: {
      operationId: 'adminDeleteChat',
      tags: ['admin'],
      summary: 'Deletes a chat and all its messages, for good',
      description: 'Service token only (`Authorization: Bearer <SERVICE_TOKEN>` and `X-Project-Id`). The shopper\'s client gets 404 chat_not_found for it from then on.',
      params: AdminChatParams,
      headers: AdminHeaders,
      response: { 200: AdminDeleted, ...errorResponses(...bodyErrors, ...chatErrors.adminDeleteChat) }
    }
  }, async (request) => {
    const chatId = request.params.chat_id
    if (!await deleteChat(app.pg, request.principal.projectId, chatId)) throw notFound(chatId)
    return { deleted: true as const }
  })
}
