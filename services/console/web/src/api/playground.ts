import { ApiError, projectPath, send } from './client.js'
import { eventsOf } from '@chatsearch/chat-widget/sse'
import type { ErrorBody, NewUserMessageResponse } from './types.js'

export interface StreamHandlers {
  /** The next piece of the reply. */
  onDelta: (text: string) => void
  /** Discard the pieces so far: another reply follows. */
  onReset: () => void
}

/**
 * Sends a message to the project's assistant as a test chat, the reply streamed (the chat service's
 * server-sent events, forwarded unchanged: `delta`, `reset`, then `done` with the whole reply or `error`).
 */
export async function sendPlaygroundMessage (
  projectId: string,
  message: { user_message: string, chat_id?: string },
  handlers: StreamHandlers,
  signal?: AbortSignal
): Promise<NewUserMessageResponse> {
  const response = await send(projectPath(projectId, 'playground', 'chat'), {
    method: 'POST',
    body: { ...message, stream: true },
    headers: { accept: 'text/event-stream' },
    ...(signal === undefined ? {} : { signal })
  })
  // A server that answered as JSON after all (a replayed request) sends the whole reply at once.
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || response.body === null) {
    return await response.json() as NewUserMessageResponse
  }
  for await (const { event, data } of eventsOf(response.body)) {
    if (event === 'delta') handlers.onDelta((JSON.parse(data) as { text: string }).text)
    else if (event === 'reset') handlers.onReset()
    else if (event === 'done') return JSON.parse(data) as NewUserMessageResponse
    else if (event === 'error') {
      const body = JSON.parse(data) as ErrorBody
      throw new ApiError(body.statusCode, body.code, body.message)
    }
  }
  throw new ApiError(0, 'stream_ended', 'The reply stopped before it was complete. Send the message again.')
}
