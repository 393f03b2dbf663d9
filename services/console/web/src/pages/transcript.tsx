import { useLocation } from 'preact-iso'
import { answerChat, deleteChat, getChat } from '../api/chats.js'
import type { AdminMessage } from '../api/types.js'
import { Citations } from '../components/citations.js'
import { Decision } from '../components/decision.js'
import { FeedbackMark } from '../components/feedback.js'
import { ConfirmButton } from '../components/confirm-button.js'
import { ProjectFrame, useProject } from '../components/project-frame.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { classLabels, formatDate } from '../format.js'
import { useAction, useLoad } from '../hooks.js'

function authorOf (message: AdminMessage): string {
  if (message.role === 'user') return 'Shopper'
  return message.author?.kind === 'human' ? `${message.author.username} (team)` : 'Assistant'
}

function MessageItem ({ projectId, message }: { projectId: string, message: AdminMessage }) {
  return (
    <li class={`message message-${message.role}${message.author?.kind === 'human' ? ' message-human' : ''}`}>
      <p class='message-meta'>
        <strong>{authorOf(message)}</strong>
        {' · '}<time dateTime={message.timestamp}>{formatDate(message.timestamp)}</time>
        {message.classification !== undefined && <> · <span class='badge'>{classLabels[message.classification]}</span></>}
      </p>
      <p class='message-text'>{message.content}</p>
      {message.citations !== undefined && <Citations projectId={projectId} citations={message.citations} />}
      {message.feedback !== undefined && <FeedbackMark feedback={message.feedback} />}
      {message.decision !== undefined && <Decision decision={message.decision} />}
    </li>
  )
}

function Body ({ chatId }: { chatId: string }) {
  const project = useProject()
  const { route } = useLocation()
  const transcript = useLoad(() => getChat(project.id, chatId), [project.id, chatId])
  const action = useAction()
  const listPath = `/projects/${encodeURIComponent(project.id)}/chats`

  if (transcript.data === undefined) {
    return transcript.error !== undefined ? <ErrorAlert message={transcript.error} /> : <Loading what='conversation' />
  }
  const { chat, messages } = transcript.data
  return (
    <>
      <p><a href={listPath}>← All conversations</a></p>
      <dl class='facts'>
        <div><dt>Consumer</dt><dd>{chat.consumer_id}</dd></div>
        <div><dt>Started</dt><dd>{formatDate(chat.created_at)}</dd></div>
        <div><dt>Updated</dt><dd>{formatDate(chat.last_updated_at)}</dd></div>
        <div><dt>Status</dt><dd>{chat.needs_human ? <span class='badge badge-alert'>Handed off</span> : 'Answered'}{chat.is_test && <> <span class='badge'>Test</span></>}</dd></div>
      </dl>
      <ErrorAlert message={action.error ?? transcript.error} />
      <Status>{action.status}</Status>
      <section aria-labelledby='transcript-heading'>
        <h2 id='transcript-heading'>Transcript</h2>
        <ol class='messages plain'>
          {messages.map((m) => <MessageItem key={m.msg_id} projectId={project.id} message={m} />)}
        </ol>
      </section>
      <section aria-labelledby='answer' class='card'>
        <h2 id='answer'>Answer as a person</h2>
        <form
          class='stack' onSubmit={(e) => {
            e.preventDefault()
            const form = e.currentTarget
            const content = String(new FormData(form).get('content')).trim()
            action.run(() => answerChat(project.id, chatId, content), 'Answer sent.').then((r) => {
              if (r === undefined) return
              form.reset()
              transcript.reload()
            })
          }}
        >
          <label for='answer-content'>Your answer</label>
          <textarea id='answer-content' name='content' rows={4} required aria-describedby='answer-hint' />
          <p id='answer-hint' class='hint'>The shopper reads it in the conversation, signed with your username.</p>
          <div><button type='submit' class='primary' disabled={action.pending}>Send answer</button></div>
        </form>
      </section>
      <section aria-labelledby='danger' class='card'>
        <h2 id='danger'>Delete</h2>
        <ConfirmButton
          label='Delete' target='this conversation' question='Delete this conversation for good?'
          onConfirm={() => action.run(async () => { await deleteChat(project.id, chatId); return true }).then((deleted) => { if (deleted === true) route(listPath) })}
        />
      </section>
    </>
  )
}

export function Transcript ({ id, chat_id: chatId }: { id: string, chat_id: string }) {
  return <ProjectFrame id={id} title='Conversation'><Body chatId={chatId} /></ProjectFrame>
}
