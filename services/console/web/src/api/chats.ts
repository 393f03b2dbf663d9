import type { AdminChatsQuery, Message } from '@chatsearch/contracts'
import { del, get, post, projectPath, query } from './client.js'
import type { AdminChatDetail, AdminChatList } from './types.js'

export type ChatFilters = Omit<AdminChatsQuery, 'limit' | 'cursor'>

export const listChats = (id: string, filters: ChatFilters, cursor?: string) =>
  get<AdminChatList>(projectPath(id, 'chats') + query({ ...filters, limit: 50, cursor }))
export const getChat = (id: string, chatId: string) => get<AdminChatDetail>(projectPath(id, 'chats', chatId))
export const deleteChat = (id: string, chatId: string) => del(projectPath(id, 'chats', chatId))
export const answerChat = (id: string, chatId: string, content: string) => post<Message>(projectPath(id, 'chats', chatId, 'answer'), { content })

/** Where the browser downloads the chats the filters select (the session cookie goes along). */
export const exportUrl = (id: string, format: 'json' | 'csv', filters: ChatFilters) =>
  projectPath(id, 'chats', 'export') + query({ format, ...filters })
