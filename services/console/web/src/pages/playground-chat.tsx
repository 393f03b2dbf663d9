import { Fragment } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { messageOf } from '../api/client.js'
import { sendPlaygroundMessage } from '../api/playground.js'
import type { Citation, Classification } from '../api/types.js'
import { Citations } from '../components/citations.js'
import { ErrorAlert } from '../components/status.js'
import { classLabels } from '../format.js'

interface Turn {
  user: string
  reply: string
  done: boolean
  classification?: Classification
  citations?: Citation[]
  handoff?: boolean
}

/** A test chat with the project's assistant, its replies streamed as they are written. */
export function PlaygroundChat ({ projectId }: { projectId: string }) {
  const [turns, setTurns] = useState<Turn[]>([])
  const [chatId, setChatId] = useState<string | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)
  const [announcement, setAnnouncement] = useState('')
  const abort = useRef<AbortController | undefined>(undefined)
  const input = useRef<HTMLTextAreaElement>(null)
  useEffect(() => () => abort.current?.abort(), [])

  const update = (change: (turn: Turn) => Turn) => setTurns((list) => [...list.slice(0, -1), change(list[list.length - 1]!)])

  const send = async (message: string) => {
    setPending(true)
    setError(undefined)
    setAnnouncement('The assistant is writing…')
    setTurns((list) => [...list, { user: message, reply: '', done: false }])
    abort.current = new AbortController()
    try {
      const body = await sendPlaygroundMessage(projectId, chatId === undefined ? { user_message: message } : { user_message: message, chat_id: chatId }, {
        onDelta: (text) => update((t) => ({ ...t, reply: t.reply + text })),
        onReset: () => update((t) => ({ ...t, reply: '' }))
      }, abort.current.signal)
      setChatId(body.chat_id)
      update((t) => ({ ...t, reply: body.assistant_response, done: true, classification: body.classification, citations: body.citations, handoff: body.handoff }))
      // The whole reply is announced once, not piece by piece.
      setAnnouncement(`Assistant: ${body.assistant_response}`)
    } catch (err) {
      if (abort.current.signal.aborted) return
      setError(messageOf(err))
      setAnnouncement('')
      update((t) => ({ ...t, done: true }))
    } finally {
      setPending(false)
      input.current?.focus()
    }
  }

  return (
    <section aria-labelledby='playground-chat' class='card'>
      <div class='section-head'>
        <h2 id='playground-chat'>Chat</h2>
        <button type='button' disabled={pending || turns.length === 0} onClick={() => { setTurns([]); setChatId(undefined); setError(undefined) }}>New chat</button>
      </div>
      <p class='hint'>Playground chats are test chats: they are left out of analytics{chatId !== undefined && <> (this one is <code>{chatId}</code>)</>}.</p>
      <ol class='messages plain' aria-label='Conversation so far'>
        {turns.map((t, i) => (
          <Fragment key={i}>
            <li class='message message-user'><p class='message-meta'><strong>You</strong></p><p class='message-text'>{t.user}</p></li>
            <li class='message message-assistant' aria-busy={!t.done}>
              <p class='message-meta'>
                <strong>Assistant</strong>
                {t.classification !== undefined && <> · <span class='badge'>{classLabels[t.classification]}</span></>}
                {t.handoff === true && <> · <span class='badge badge-alert'>Handed off</span></>}
              </p>
              <p class='message-text'>{t.reply === '' && !t.done ? '…' : t.reply}</p>
              {t.citations !== undefined && <Citations projectId={projectId} citations={t.citations} />}
            </li>
          </Fragment>
        ))}
      </ol>
      <p class='sr-only' role='status' aria-live='polite'>{announcement}</p>
      <ErrorAlert message={error} />
      <form
        class='stack' onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const message = String(new FormData(form).get('message')).trim()
          if (message === '') return
          form.reset()
          send(message)
        }}
      >
        <label for='playground-message'>Message</label>
        <textarea
          id='playground-message' name='message' rows={3} required ref={input} aria-describedby='playground-message-hint'
          onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); e.currentTarget.form?.requestSubmit() } }}
        />
        <p id='playground-message-hint' class='hint'>Enter sends; Shift+Enter starts a new line.</p>
        <div><button type='submit' class='primary' disabled={pending}>Send</button></div>
      </form>
    </section>
  )
}
