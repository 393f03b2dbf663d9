import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { exportUrl, listChats } from '../api/chats.js'
import { messageOf, query as queryString } from '../api/client.js'
import type { AdminChatSummary as ChatSummary } from '../api/types.js'
import { ProjectFrame, useProject } from '../components/project-frame.js'
import { ErrorAlert, Status } from '../components/status.js'
import { classLabels, formatDate } from '../format.js'
import { apiFilters, ChatFilterForm, filtersOf } from './chat-filters.js'

/** Handed-off chats first, as the API orders them; kept so when pages are appended. */
const handedOffFirst = (chats: ChatSummary[]) => [...chats.filter((c) => c.needs_human), ...chats.filter((c) => !c.needs_human)]

function ChatItem ({ projectId, chat }: { projectId: string, chat: ChatSummary }) {
  return (
    <li class={chat.needs_human ? 'chat handed-off' : 'chat'}>
      <div class='chat-head'>
        <a href={`/projects/${encodeURIComponent(projectId)}/chats/${encodeURIComponent(chat.chat_id)}`}>
          {chat.consumer_id}<span class='sr-only'>, conversation {chat.chat_id}</span>
        </a>
        {chat.needs_human && <span class='badge badge-alert'>Handed off</span>}
        {chat.is_test && <span class='badge'>Test</span>}
      </div>
      <p class='last-message'>{chat.last_message}</p>
      <p class='hint'>
        {chat.message_count} messages · updated {formatDate(chat.last_updated_at)}
        {chat.classifications.length > 0 && ` · ${chat.classifications.map((c) => classLabels[c] ?? c).join(', ')}`}
      </p>
    </li>
  )
}

function Body () {
  const project = useProject()
  const { query, path, route } = useLocation()
  const filters = filtersOf(query)
  const key = JSON.stringify(filters)
  const [chats, setChats] = useState<ChatSummary[] | undefined>()
  const [cursor, setCursor] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<string | undefined>()

  const load = async (after?: string) => {
    setLoading(true)
    setError(undefined)
    try {
      const page = await listChats(project.id, apiFilters(filters), after)
      setChats((list) => handedOffFirst(after === undefined ? page.chats : [...(list ?? []), ...page.chats]))
      setCursor(page.next_cursor)
    } catch (err) {
      setError(messageOf(err))
    } finally {
      setLoading(false)
    }
  }
  useEffect(() => {
    setChats(undefined)
    load()
  }, [project.id, key])

  const api = apiFilters(filters)
  return (
    <>
      <ChatFilterForm key={key} filters={filters} onApply={(f) => route(path + queryString({ ...f }))} />
      <p class='exports'>
        Export the conversations these filters select:{' '}
        <a href={exportUrl(project.id, 'json', api)} download>JSON</a>{' '}
        <a href={exportUrl(project.id, 'csv', api)} download>CSV</a>
      </p>
      <ErrorAlert message={error} />
      <Status>{loading ? 'Loading conversations…' : chats !== undefined && `${chats.length}${cursor === null ? '' : '+'} conversation${chats.length === 1 && cursor === null ? '' : 's'}.`}</Status>
      {chats !== undefined && chats.length > 0 && (
        <ul class='chats plain' aria-label='Conversations'>
          {chats.map((c) => <ChatItem key={c.chat_id} projectId={project.id} chat={c} />)}
        </ul>
      )}
      {chats?.length === 0 && <p>No conversations match.</p>}
      {cursor !== null && <button type='button' disabled={loading} onClick={() => { load(cursor) }}>Load more</button>}
    </>
  )
}

export function Chats ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Conversations'><Body /></ProjectFrame>
}
