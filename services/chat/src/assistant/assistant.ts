import type { Citation, Classification, Message } from '@chatsearch/contracts'
import type { Classifier } from './classifier.js'
import type { Retriever } from './retriever.js'
import { groundedReply } from './responder.js'

export interface AssistantAnswer {
  classification: Classification
  reply: string
  citations: Citation[]
}

/** The reply pipeline: classify the message, retrieve catalog items, compose the answer. */
export class Assistant {
  readonly #classifier: Classifier
  readonly #retriever: Retriever

  constructor (classifier: Classifier, retriever: Retriever) {
    this.#classifier = classifier
    this.#retriever = retriever
  }

  async answer (projectId: string, message: string, history: Message[]): Promise<AssistantAnswer> {
    const { label } = await this.#classifier.classify(message)
    const wantsItems = label === 'question' || label === 'request'
    const items = wantsItems ? await this.#retriever.retrieve(projectId, message, history) : []
    const reply = groundedReply({ message, classification: label, items })
    return { classification: label, reply: reply.text, citations: reply.citations }
  }
}
