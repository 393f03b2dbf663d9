import type { FastifyBaseLogger } from 'fastify'
import type { Citation, Classification, Message } from '@chatsearch/contracts'
import type { Classifier } from './classifier.js'
import type { RetrievedItem, Retriever } from './retriever.js'
import type { Order } from './constraints.js'
import { groundedReply } from './responder.js'
import { promisedActions } from './promises.js'
import { LlmError, type ChatModel } from './llm/client.js'
import { buildPrompt, citeFromReply, MarkerStripper } from './llm/prompt.js'

export interface AssistantAnswer {
  classification: Classification
  reply: string
  citations: Citation[]
}

export interface AssistantOptions {
  classifier: Classifier
  retriever: Retriever
  /** An OpenAI-compatible model writes the replies when given; the grounded responder otherwise. */
  model?: ChatModel
  /** Prompt size the model's input may use (items, history and the message). */
  promptTokens?: number
  log: FastifyBaseLogger
}

export interface AnswerOptions {
  /** Receives the reply as it is produced; their concatenation is the final reply (after a reset). */
  onDelta?: (text: string) => void
  /** The model failed after part of its reply was sent: what was sent is void, the reply starts over. */
  onReset?: () => void
  /** The caller went away: stop, nothing is stored. */
  signal?: AbortSignal
  /** The chat request's id, passed on to the search service so that one id follows the turn. */
  requestId?: string
}

/** What a deployment wants to watch: failures that did not fail a turn. */
export interface AssistantStats {
  retrievalFailures: number
  llmFallbacks: number
}

/** Items below this retrieval score are not worth naming, whatever their rank. */
const MIN_CONFIDENCE = 0.3
/** Nor are those far below the best match. */
const RELATIVE_TO_BEST = 0.95
const GROUNDED_ITEMS = 3
const MODEL_ITEMS = 5

const byScore = (a: RetrievedItem, b: RetrievedItem) => b.score - a.score
const ORDERS: Record<Order, (a: RetrievedItem, b: RetrievedItem) => number> = {
  price: (a, b) => (a.price ?? Infinity) - (b.price ?? Infinity) || byScore(a, b),
  rating: (a, b) => (b.rating ?? -Infinity) - (a.rating ?? -Infinity) || byScore(a, b)
}

/**
 * The items a reply may use: good enough on their own and close to the best match; best first, or in
 * the order the shopper asked for ("the cheapest …" among the good matches).
 */
export function relevantItems (items: RetrievedItem[], max: number, order?: Order): RetrievedItem[] {
  const best = Math.max(0, ...items.map((i) => i.score))
  const relevant = items.filter((i) => i.score >= MIN_CONFIDENCE && i.score >= best * RELATIVE_TO_BEST)
  return relevant.sort(order === undefined ? byScore : ORDERS[order]).slice(0, max)
}

const citationOf = (item: RetrievedItem): Citation => ({ source: 'catalog', reference: item.id, confidence: item.score, title: item.title })

/** Splits a finished reply into word-sized deltas, for streaming a reply that was not generated token by token. */
function * wordDeltas (text: string): Generator<string> {
  for (const match of text.matchAll(/\s*\S+/g)) yield match[0]
}

/** The reply pipeline: classify the message, retrieve catalog items, compose the answer. */
export class Assistant {
  readonly stats: AssistantStats = { retrievalFailures: 0, llmFallbacks: 0 }
  readonly #opts: AssistantOptions

  constructor (opts: AssistantOptions) {
    this.#opts = opts
  }

  async answer (projectId: string, message: string, history: Message[], opts: AnswerOptions = {}): Promise<AssistantAnswer> {
    const { label } = await this.#opts.classifier.classify(message)
    const wantsItems = label === 'question' || label === 'request' || label === 'other'
    const retrieval = wantsItems ? await this.#opts.retriever.retrieve(projectId, message, history, { requestId: opts.requestId }) : { items: [] }
    if (retrieval.failure !== undefined) {
      this.stats.retrievalFailures++
      this.#opts.log.warn({ projectId, reason: retrieval.failure }, 'catalog search failed; answering without items')
    }
    const searchFailed = retrieval.failure !== undefined
    const order = retrieval.plan?.constraints.order
    opts.signal?.throwIfAborted()

    if (this.#opts.model !== undefined) {
      const items = relevantItems(retrieval.items, MODEL_ITEMS, order)
      const fromModel = await this.#modelReply(this.#opts.model, message, history, items, opts)
      if (fromModel !== undefined) return { classification: label, ...fromModel }
    }
    const reply = groundedReply({ message, classification: label, items: relevantItems(retrieval.items, GROUNDED_ITEMS, order), searchFailed })
    if (opts.onDelta !== undefined) for (const delta of wordDeltas(reply.text)) opts.onDelta(delta)
    return { classification: label, reply: reply.text, citations: reply.citations }
  }

  /** The model's reply with the items it named as citations; undefined when it failed (the grounded responder then answers). */
  async #modelReply (model: ChatModel, message: string, history: Message[], items: RetrievedItem[], opts: AnswerOptions) {
    const prompt = buildPrompt({
      items,
      history: history.map((m) => ({ role: m.role, content: m.content })),
      message,
      tokenBudget: this.#opts.promptTokens ?? 3000
    })
    let sent = false
    try {
      let text: string
      if (opts.onDelta === undefined) {
        text = await model.complete(prompt, opts.signal)
      } else {
        text = ''
        const stripper = new MarkerStripper(items)
        for await (const delta of model.stream(prompt, opts.signal)) {
          text += delta
          const visible = stripper.push(delta)
          if (visible !== '') { opts.onDelta(visible); sent = true }
        }
        const rest = stripper.end()
        if (rest !== '') { opts.onDelta(rest); sent = true }
      }
      const { text: clean, cited } = citeFromReply(text, items)
      if (clean.trim() === '') throw new LlmError('protocol', 'the model returned an empty reply')
      const promised = promisedActions(clean)
      if (promised.length > 0) throw new LlmError('protocol', `the model promised an action nothing takes ("${promised[0]}")`)
      // Best first, as the retrieval ranked them, whatever order the model named them in.
      const citations = items.filter((i) => cited.includes(i.id)).map(citationOf)
      return { reply: clean.trim(), citations }
    } catch (err) {
      if (opts.signal?.aborted === true) throw err
      this.stats.llmFallbacks++
      this.#opts.log.warn({ err: { kind: (err as LlmError).kind, message: (err as Error).message } }, 'language model failed; the grounded responder answers')
      if (sent) opts.onReset?.()
      return undefined
    }
  }
}
