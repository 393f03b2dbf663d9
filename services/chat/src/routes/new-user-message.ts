import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { ErrorBody, NewUserMessageBody, NewUserMessageResponse, errorResponses } from '@chatsearch/contracts'
import { chatNotFound, missingParameters } from '@chatsearch/shell'
import type { Assistant, AssistantAnswer } from '../assistant/assistant.js'
import { appendTurn, createChatWithTurn, findChat, type Turn } from '../store/chats.js'
import { recentMessages } from '../store/messages.js'
import { KeyedLock } from '../keyed-lock.js'

export interface NewUserMessageOptions {
  assistant: Assistant
  historyTurns: number
}

const response = (chatId: string, answer: AssistantAnswer): NewUserMessageResponse => ({
  assistant_response: answer.reply,
  chat_id: chatId,
  classification: answer.classification,
  citations: answer.citations
})

const turnOf = (userMessage: string, answer: AssistantAnswer, startedAt: Date, test: boolean): Turn => ({
  userMessage, classification: answer.classification, reply: answer.reply, citations: answer.citations, startedAt, test
})

export async function newUserMessageRoutes (app: FastifyInstance, opts: NewUserMessageOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const turns = new KeyedLock()

  api.post('/newUserMessage', {
    schema: {
      tags: ['chat'],
      summary: 'Send a user message and receive the assistant reply',
      description: 'Starts a conversation when chat_id is omitted or empty (consumer_id is then required), otherwise continues it.',
      body: NewUserMessageBody,
      response: { 200: NewUserMessageResponse, 404: ErrorBody, ...errorResponses }
    }
  }, async (request) => {
    const { user_message: message, chat_id: chatId, consumer_id: consumerId, test = false } = request.body
    const { projectId } = request.principal
    const startedAt = new Date()

    if (chatId === undefined || chatId === '') {
      if (consumerId === undefined) throw missingParameters('consumer_id is required when chat_id is not given')
      const answer = await opts.assistant.answer(projectId, message, [])
      const newChatId = await createChatWithTurn(app.pg, projectId, consumerId, turnOf(message, answer, startedAt, test))
      return response(newChatId, answer)
    }

    return await turns.run(`${projectId}\n${chatId}`, async () => {
      const chat = await findChat(app.pg, projectId, chatId)
      // A consumer_id that is not the chat's own means the caller has the wrong chat: same answer as missing.
      if (chat === undefined || (consumerId !== undefined && chat.consumer_id !== consumerId)) {
        throw chatNotFound(`chat ${chatId} does not exist${consumerId === undefined ? '' : ` for consumer ${consumerId}`}`)
      }
      const history = await recentMessages(app.pg, projectId, chatId, opts.historyTurns * 2)
      const answer = await opts.assistant.answer(projectId, message, history)
      const stored = await appendTurn(app.pg, projectId, chatId, turnOf(message, answer, startedAt, test))
      if (!stored) throw chatNotFound(`chat ${chatId} does not exist`)
      return response(chatId, answer)
    })
  })
}
