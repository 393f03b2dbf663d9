/**
 * Shapes of the console's own API (/work/notes/console-api.md, section C). What the console forwards
 * from the chat and search services is typed by @chatsearch/contracts; only the types are imported,
 * so no schema code reaches the bundle.
 */
import type { ChatAnalyticsResponse, SearchAnalyticsResponse } from '@chatsearch/contracts'

export type {
  AdminChatDetail, AdminChatList, AdminChatSummary, CatalogSettings, Citation, Classification, DocumentsResponse, KnowledgeDocument, KnowledgeListResponse, KnowledgeSummary,
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
  added_at: string
}

export type Service = 'chat' | 'search'

export interface Credential {
  id: string
  service: Service
  username: string
  hint: string
  created_at: string
  /** When the service last accepted it, where the console reports it. */
  last_used_at?: string | null
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

export interface Analytics {
  chat: ChatAnalyticsResponse
  search: SearchAnalyticsResponse
}
