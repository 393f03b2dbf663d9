/**
 * The assistant's data, in one place: what retrieval finds, what a reply is made of, and why a turn
 * went its way. Every file of the assistant imports its types from here, so no two files import
 * each other for a type (no cycle).
 */
import type { Citation, Classification, KnowledgeKind, Message, TurnDecision } from '@chatsearch/contracts'
import type { SearchPlan } from './constraints/index.js'

export type { TurnDecision }

/** The fields of a catalog item that a reply or a model's prompt shows. */
export interface ItemFields {
  id: string
  title: string
  price?: number
  in_stock?: boolean
  brand?: string
  category?: string
  rating?: number
  description?: string
  tags?: string[]
}

/**
 * A catalog item found for a message, with what the two searches said of it: the cosine similarity of
 * the message and the item (semantic search; 0 when it was not among those found) and the keyword
 * search's score (0 when not matched by keyword).
 */
export interface RetrievedItem extends ItemFields {
  semantic: number
  keyword: number
  /** The best of the two searches' places of the item, from 0. */
  rank: number
}

/** A catalog item as GET /documents/{id} returns it: whatever fields the catalog holds. */
export type CatalogItem = Record<string, unknown> & { id: string | number }

export interface Retrieval {
  items: RetrievedItem[]
  /** The search that was sent, when one was. */
  plan?: SearchPlan
  /** Why the search service could not be asked (down, slow, refusing): the turn goes on without items. */
  failure?: string
}

/** What a retrieval carries of the request it serves. */
export interface RetrievalContext {
  /** The id of the chat request, passed on to the search service (X-Request-Id) so one id follows the turn. */
  requestId?: string
  /**
   * "cheaper?" after a list: items must cost less than this (the cheapest item the shopper was shown),
   * unless the message names a price of its own.
   */
  cheaperThan?: number
  /** The words a semantic search is sent with, when not the message itself (a follow-up with its subject). */
  semanticText?: string
}

/** A chunk of the project's knowledge found for a message (POST /knowledge/search). */
export interface KnowledgePassage {
  documentId: string
  chunkId: string
  kind: KnowledgeKind
  /** A page's title; a pair's question. */
  title: string
  section: string
  url?: string
  /** A page chunk's text; a pair's answer. */
  text: string
  score: number
}

export interface KnowledgeRetrieval {
  passages: KnowledgePassage[]
  failure?: string
}

export interface ItemsRetrieval {
  items: Array<CatalogItem | undefined>
  failure?: string
}

export interface Retriever {
  retrieve (projectId: string, message: string, history: Message[], context?: RetrievalContext): Promise<Retrieval>
  /** The project's knowledge (help pages, FAQs) that best matches the text. */
  knowledge (projectId: string, text: string, context?: RetrievalContext): Promise<KnowledgeRetrieval>
  /** Catalog items by id, as the catalog holds them now (undefined for one that is gone). */
  items (projectId: string, ids: string[], context?: RetrievalContext): Promise<ItemsRetrieval>
  /**
   * Every chunk of one help page, in order (none when it is gone); `found`, a chunk of it the search
   * just found, tells a page kept from before that was edited since.
   */
  page (projectId: string, documentId: string, context?: RetrievalContext, found?: KnowledgePassage): Promise<KnowledgeRetrieval>
}

export interface Reply {
  text: string
  citations: Citation[]
}

/** Why a turn is handed off (the contracts' HandoffReason). */
export type HandoffCase = NonNullable<TurnDecision['handoff_reason']>

export interface AssistantAnswer {
  classification: Classification
  reply: string
  citations: Citation[]
  /** Only a person can help: the chat is flagged for the project's team (spec/knowledge.md). */
  handoff: boolean
  /** Why the turn went this way: stored for the team, never shown to the shopper. */
  decision: TurnDecision
}
