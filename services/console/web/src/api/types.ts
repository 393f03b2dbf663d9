/**
 * Shapes of the console's own API (/work/notes/console-api.md, section C). What the console forwards
 * from the chat and search services is typed by @chatsearch/contracts; only the types are imported,
 * so no schema code reaches the bundle.
 */
import type { Classification, Message } from '@chatsearch/contracts'

export type {
  CatalogSettings, Citation, Classification, DocumentsResponse, KnowledgeDocument, KnowledgeListResponse, KnowledgeSummary,
  Message, NewUserMessageResponse, SearchBody, SearchHit, SearchResponse, Task, TaskAccepted, TaskList
} from '@chatsearch/contracts'

export interface Session {
  username: string
  csrf_token: string
}

export type Role = 'owner' | 'member'

export interface Project {
  id: string
  name: string
  role: Role
  created_at: string
}

export interface Member {
  username: string
  role: Role
  created_at?: string
}

export type Service = 'chat' | 'search'

export interface Credential {
  id: string
  service: Service
  username: string
  hint: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

/** A credential just created: the only time its key is shown. */
export interface NewCredential {
  id: string
  service: Service
  username: string
  key: string
  hint: string
  created_at: string
}

export interface ChatSummary {
  chat_id: string
  consumer_id: string
  created_at: string
  last_updated_at: string
  message_count: number
  needs_human: boolean
  is_test: boolean
  classifications: Classification[]
  last_message: string
}

export interface ChatList {
  chats: ChatSummary[]
  next_cursor: string | null
}

export interface ChatTranscript {
  chat: ChatSummary
  messages: Message[]
}

export interface ChatAnalytics {
  days: number
  chats_per_day: Array<{ day: string, chats: number, messages: number }>
  classifications: Partial<Record<Classification, number>>
  handoff: { chats: number, handed_off: number, rate: number }
}

export interface SearchAnalytics {
  days: number
  searches_per_day: Array<{ day: string, searches: number, autocompletes: number }>
  top_queries: Array<{ query: string, count: number }>
  no_result_queries: Array<{ query: string, count: number }>
}

export interface Analytics {
  chat: ChatAnalytics
  search: SearchAnalytics
}
