import type { Message } from '@chatsearch/contracts'

/** A catalog item found for a message, with its retrieval score normalised to [0, 1]. */
export interface RetrievedItem {
  id: string
  title: string
  price?: number
  in_stock?: boolean
  score: number
}

export interface Retriever {
  retrieve (projectId: string, message: string, history: Message[]): Promise<RetrievedItem[]>
}

/** Until the search service can be asked, nothing is retrieved and replies carry no citations. */
export const noRetriever: Retriever = {
  retrieve: async () => []
}
