import type { FastifyBaseLogger } from 'fastify'
import { decisionEvidenceMax, type Citation, type Classification, type DecisionRoute, type Message, type TurnDecision } from '@chatsearch/contracts'
import type { Classifier } from './classifier.js'
import type { KnowledgeRetrieval, Retrieval, RetrievedItem, Retriever } from './retriever.js'
import { MIN_ITEM_CONFIDENCE } from './retriever.js'
import type { Order } from './constraints.js'
import { groundedReply, handoffReply, phrasings } from './responder.js'
import { promisedActions } from './promises.js'
import { handoffReason } from './handoff.js'
import { answerFromKnowledge, type KnowledgeAnswer } from './knowledge-answer.js'
import { coverage, stems } from './words.js'
import { citedLists, resolveReference } from './references.js'
import { detectLanguage, isGreeting, languageNote, type Language } from './language.js'
import { refineClassification } from './understand.js'
import { clarifyingReply, referenceReply } from './reference-reply.js'
import { LlmError, type ChatMessage, type ChatModel } from './llm/client.js'
import { buildToolPrompt, citeFromReply, MarkerStripper } from './llm/prompt.js'
import { checkReply, TOOLS, ToolRunner } from './tools.js'

export interface AssistantAnswer {
  classification: Classification
  reply: string
  citations: Citation[]
  /** Only a person can help: the chat is flagged for the project's team (spec/knowledge.md). */
  handoff: boolean
  /** Why the turn went that way (decision 17): stored for the team, never sent to the shopper. */
  decision?: TurnDecision
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

/** What the search service found for a message: the catalog's items and the knowledge's passages. */
interface Found { retrieval: Retrieval, knowledge: KnowledgeRetrieval }

/** What a deployment wants to watch: failures that did not fail a turn. */
export interface AssistantStats {
  retrievalFailures: number
  knowledgeFailures: number
  llmFallbacks: number
}

/** Nor are those far below the best match. */
const RELATIVE_TO_BEST = 0.95
const GROUNDED_ITEMS = 3
const CHEAPER = /\b(?:cheaper|less expensive|lower[- ]priced|more affordable)\b/i
/** Rounds of tool calls a model gets in one turn before its last answer must come. */
const MAX_TOOL_ROUNDS = 4

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
  const relevant = items.filter((i) => i.score >= MIN_ITEM_CONFIDENCE && i.score >= best * RELATIVE_TO_BEST)
  return relevant.sort(order === undefined ? byScore : ORDERS[order]).slice(0, max)
}

/** The share of the message's words the best of the items holds (title, brand, category, description). */
function itemCoverage (message: string, items: RetrievedItem[]): number {
  const wanted = stems(message)
  return Math.max(0, ...items.map((i) => coverage(wanted, new Set(stems([i.title, i.brand, i.category, i.description].join(' '))))))
}

/**
 * Whether the knowledge answers the message better than the catalog: a pair whose question is the
 * message's always does; a page's sentences do when they hold more of the message's words than the
 * best item, and the shopper does not look for products.
 */
function knowledgeWins (fromKnowledge: KnowledgeAnswer, message: string, items: RetrievedItem[], retrieval: Retrieval): boolean {
  if (fromKnowledge.kind === 'faq' || items.length === 0) return true
  return !seeksProducts(message, retrieval) && fromKnowledge.coverage > itemCoverage(message, items)
}

const INTERROGATIVE = /^(?:what|when|where|which|who|why|how|do|does|did|is|are|was|can|could|will|would|should|have|has)\b/i

/** A question, whatever the classifier made of it ("How do I return a jacket?" reads like a request). */
function isQuestion (message: string, label: Classification): boolean {
  if (label === 'question') return true
  return (label === 'request' || label === 'other') && (/\?\s*$/.test(message) || INTERROGATIVE.test(message.trim()))
}

const PRODUCT_SEEKING = new RegExp([
  '\\b(?:do|does) (?:you|the shop|your shop) (?:\\w+ )?(?:have|sell|carry|stock|offer)\\b', '\\b(?:looking|searching|shopping) for\\b',
  '\\bshow me\\b', '\\brecommend', '\\bsuggest', '\\bi need (?:a|an|some|something)\\b', '\\bshould i (?:get|buy|choose)\\b',
  '\\bsomething (?:to|for|that)\\b', '\\b(?:is|are) there (?:a|an|any)\\b', '\\bwhat \\w+(?: \\w+)? (?:can|could|should) i\\b',
  '\\bwhich [\\w-]+(?: [\\w-]+)? (?:is|are) (?:the )?(?:best|good|better)\\b', "\\bwhat(?:'s| is) (?:a|the) (?:good|best)\\b", '\\b(?:any|some) \\w+s\\b'
].join('|'), 'i')

/** Whether the shopper looks for products: they name a price, brand, category or colour, or ask for items. */
function seeksProducts (message: string, retrieval: Retrieval): boolean {
  const c = retrieval.plan?.constraints
  const constrained = c !== undefined && (c.priceMin !== undefined || c.priceMax !== undefined || c.brands.length > 0 ||
    c.categories.length > 0 || c.colors.length > 0 || c.minRating !== undefined || c.order !== undefined)
  return constrained || PRODUCT_SEEKING.test(message)
}

/**
 * Whether a message reads as a question or a request for products, whatever its class turns out to
 * be: its retrieval is then started while it is classified (see `Assistant.answer`). Such a
 * message is almost never a complaint or feedback, so the search is rarely wasted.
 */
function likelyRetrieves (message: string): boolean {
  return /\?\s*$/.test(message) || INTERROGATIVE.test(message.trim()) || PRODUCT_SEEKING.test(message)
}

/** Stand-in until evidence is scored (decision 17): the cited sources at their retrieval confidence. */
const citedEvidence = (citations: Citation[]): TurnDecision['evidence'] =>
  citations.slice(0, decisionEvidenceMax).map((c) => ({ source: c.source, reference: c.reference, score: c.confidence, used: true }))

/** Splits a finished reply into word-sized deltas, for streaming a reply that was not generated token by token. */
function * wordDeltas (text: string): Generator<string> {
  for (const match of text.matchAll(/\s*\S+/g)) yield match[0]
}

/** The reply pipeline: classify the message, retrieve catalog items, compose the answer. */
export class Assistant {
  readonly stats: AssistantStats = { retrievalFailures: 0, knowledgeFailures: 0, llmFallbacks: 0 }
  readonly #opts: AssistantOptions

  constructor (opts: AssistantOptions) {
    this.#opts = opts
  }

  /**
   * One turn: understand the message (its class; whether only a person can help), retrieve from the
   * catalog and the knowledge at once, then compose: a person's matter is handed off; an FAQ or the
   * help pages answer what they answer; items answer the rest; a question nothing answers is handed
   * off rather than guessed at.
   */
  async answer (projectId: string, message: string, history: Message[], opts: AnswerOptions = {}): Promise<AssistantAnswer> {
    // A message that will search whatever its class (no handoff, no greeting, no follow-up, a
    // question's or a product request's wording) searches while it is classified: the turn then
    // waits for the longer of the two, not their sum. A search the class turns out not to want is dropped.
    const early = this.#opts.model === undefined && handoffReason(message) === undefined && !isGreeting(message) &&
      resolveReference(message, history) === undefined && likelyRetrieves(message)
      ? this.#find(projectId, message, history, opts, true)
      : undefined
    if (early !== undefined) {
      early.catch(() => {})
      // The requests go out before an embedder that computes on this thread holds it.
      await new Promise((resolve) => setImmediate(resolve))
    }
    const classified = await this.#opts.classifier.classify(message)
    // The classifier learnt English: a greeting in any language is a greeting, and a few plain cases are corrected.
    const label: Classification = refineClassification(message, classified.label)
    const language = detectLanguage(message)
    const note = languageNote(language)
    const reason = handoffReason(message) ?? (label === 'complaint' ? 'complaint' : undefined)
    // A reply written here (not by a model) is in English: a shopper writing in another language is told so.
    const send = (reply: { text: string, citations: Citation[] }, handoff: boolean, route: DecisionRoute): AssistantAnswer => {
      const text = note === undefined ? reply.text : `${note}\n\n${reply.text}`
      if (opts.onDelta !== undefined) for (const delta of wordDeltas(text)) opts.onDelta(delta)
      const decision: TurnDecision = { route, ...(handoff ? { handoff_reason: reason ?? 'unanswered' } : {}), evidence: citedEvidence(reply.citations) }
      return { classification: label, reply: text, citations: reply.citations, handoff, decision }
    }
    // With a model, it answers what a person need not (handoffs are worded here, honestly, always).
    if (reason === undefined && this.#opts.model !== undefined) {
      const fromModel = await this.#modelReply(this.#opts.model, projectId, message, history, label, language, opts)
      if (fromModel !== undefined) return { classification: label, ...fromModel, handoff: false, decision: { route: 'model', evidence: citedEvidence(fromModel.citations) } }
    }
    // A follow-up about items named before ("how much is the second one?") is answered from them.
    const reference = reason === undefined && label !== 'greeting' ? resolveReference(message, history) : undefined
    if (reference !== undefined && 'ambiguous' in reference) return send(clarifyingReply(reference.ambiguous), false, 'clarify')
    if (reference !== undefined) {
      const found = await this.#opts.retriever.items(projectId, reference.items.map((c) => c.reference), { requestId: opts.requestId })
      if (found.failure === undefined) return send(referenceReply(reference, found.items), false, 'follow_up')
      this.stats.retrievalFailures++
      this.#opts.log.warn({ projectId, reason: found.failure }, 'catalog items could not be read')
      return send({ text: phrasings.unavailable[0]!, citations: [] }, false, 'unavailable')
    }
    const wantsItems = reason === undefined && (label === 'question' || label === 'request' || label === 'other')
    // The help pages may say something useful to a shopper handed off ("how do returns work").
    const wantsKnowledge = wantsItems || reason === 'action'
    // The early search asked for both; it serves whenever the class wants items (then knowledge too).
    const { retrieval, knowledge } = await (wantsItems && early !== undefined ? early : this.#find(projectId, message, history, opts, wantsItems, wantsKnowledge))
    if (retrieval.failure !== undefined) {
      this.stats.retrievalFailures++
      this.#opts.log.warn({ projectId, reason: retrieval.failure }, 'catalog search failed; answering without items')
    }
    if (knowledge.failure !== undefined) {
      this.stats.knowledgeFailures++
      this.#opts.log.warn({ projectId, reason: knowledge.failure }, 'knowledge search failed; answering without it')
    }
    const searchFailed = retrieval.failure !== undefined
    const order = retrieval.plan?.constraints.order
    opts.signal?.throwIfAborted()
    const fromKnowledge = answerFromKnowledge(message, knowledge.passages)

    if (reason !== undefined) return send(handoffReply(reason, message, fromKnowledge), true, 'handoff')

    const items = relevantItems(retrieval.items, GROUNDED_ITEMS, order)
    if (fromKnowledge !== undefined && knowledgeWins(fromKnowledge, message, items, retrieval)) return send(fromKnowledge, false, fromKnowledge.kind)

    // A question that neither the catalog nor the help pages answer goes to a person, not to a guess;
    // one that looks for products is answered by saying that the catalog holds none.
    // (Only when the catalog was searched: without SEARCH_URL nothing is, and nothing can be said to be missing.)
    const searched = retrieval.plan !== undefined && !searchFailed && knowledge.failure === undefined
    const unanswered = searched && isQuestion(message, label) && !seeksProducts(message, retrieval) && items.length === 0
    if (unanswered) return send(handoffReply('unanswered', message, undefined), true, 'handoff')
    const grounded = groundedReply({ message, classification: label, items, searchFailed, ...(retrieval.unmatched === undefined ? {} : { unmatched: retrieval.unmatched }) })
    // groundedReply's own cases: items found, a template for a greeting, feedback or other, the catalog down, or nothing found.
    const route: DecisionRoute = grounded.citations.length > 0 ? 'catalog' : label === 'greeting' || label === 'feedback' || (label === 'other' && !searchFailed) ? 'small_talk' : searchFailed ? 'unavailable' : 'no_match'
    return send(grounded, false, route)
  }

  /** The catalog's items (when `items`) and the knowledge's passages (when `knowledge`) for the message, asked at once. */
  async #find (projectId: string, message: string, history: Message[], opts: AnswerOptions, items: boolean, knowledge = items): Promise<Found> {
    const context = { ...(opts.requestId === undefined ? {} : { requestId: opts.requestId }), ...await this.#cheaperThan(projectId, message, history, opts) }
    const [retrieval, passages] = await Promise.all([
      items ? this.#opts.retriever.retrieve(projectId, message, history, context) : Promise.resolve<Retrieval>({ items: [] }),
      knowledge ? this.#opts.retriever.knowledge(projectId, message, context) : Promise.resolve<KnowledgeRetrieval>({ passages: [] })
    ])
    return { retrieval, knowledge: passages }
  }

  /**
   * "cheaper?", "any less expensive ones?" after a list, naming no price: below the cheapest item of
   * that list, as the catalog prices it now.
   */
  async #cheaperThan (projectId: string, message: string, history: Message[], opts: AnswerOptions): Promise<{ cheaperThan?: number }> {
    const latest = citedLists(history)[0]
    if (latest === undefined || !CHEAPER.test(message) || /\d/.test(message)) return {}
    const found = await this.#opts.retriever.items(projectId, latest.map((c) => c.reference), { ...(opts.requestId === undefined ? {} : { requestId: opts.requestId }) })
    const prices = found.items.flatMap((item) => typeof item?.price === 'number' ? [item.price] : [])
    return prices.length === 0 ? {} : { cheaperThan: Math.min(...prices) }
  }

  /**
   * The model's reply through the tool-calling protocol (decision 13): it looks up the catalog and
   * the knowledge itself (tools.ts), for at most MAX_TOOL_ROUNDS rounds, and its reply is checked
   * after generation: every id it cites must be a source a tool returned, every price it states must
   * be in a source it cites, a question must be answered with a source, and nothing may be promised.
   * Undefined when it failed or did not pass (the grounded pipeline then answers).
   */
  async #modelReply (model: ChatModel, projectId: string, message: string, history: Message[], label: Classification, language: Language, opts: AnswerOptions) {
    const tools = new ToolRunner(this.#opts.retriever, projectId, { ...(opts.requestId === undefined ? {} : { requestId: opts.requestId }) })
    const messages: ChatMessage[] = buildToolPrompt({
      history: history.map((m) => ({ role: m.role, content: m.content })),
      message,
      tokenBudget: this.#opts.promptTokens ?? 3000,
      earlier: (citedLists(history)[0] ?? []).map((c) => ({ id: c.reference, ...(c.title === undefined ? {} : { title: c.title }) })),
      ...(language.code === 'en' ? {} : { language: language.name })
    })
    let sent = false
    try {
      let text = ''
      for (let round = 0; ; round++) {
        if (round === MAX_TOOL_ROUNDS) throw new LlmError('protocol', `the model still called tools after ${MAX_TOOL_ROUNDS} rounds`)
        // Markers of the sources known so far are taken out of the streamed text as it comes.
        const stripper = new MarkerStripper(tools.citable)
        const show = (visible: string) => { if (visible !== '' && opts.onDelta !== undefined) { opts.onDelta(visible); sent = true } }
        // Text of an earlier round ("Let me check.") and this round's are two sentences, not one word.
        let separate = text !== '' && !/\s$/.test(text)
        const onText = (delta: string) => {
          if (separate && delta !== '') { show(' '); text += ' '; separate = false }
          show(stripper.push(delta))
        }
        const response = await model.respond(messages, {
          tools: TOOLS,
          ...(opts.signal === undefined ? {} : { signal: opts.signal }),
          ...(opts.onDelta === undefined ? {} : { onText })
        })
        show(stripper.end())
        if (separate && response.text !== '') text += ' '
        text += response.text
        if (response.toolCalls.length === 0) break
        messages.push({
          role: 'assistant',
          content: response.text === '' ? null : response.text,
          tool_calls: response.toolCalls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } }))
        })
        for (const call of response.toolCalls) messages.push({ role: 'tool', tool_call_id: call.id, content: await tools.run(call) })
        opts.signal?.throwIfAborted()
      }
      const markers = new MarkerStripper(tools.citable)
      markers.push(text)
      markers.end()
      const { text: clean, cited } = citeFromReply(text, tools.citable)
      if (clean.trim() === '') throw new LlmError('protocol', 'the model returned an empty reply')
      const promised = promisedActions(clean)
      if (promised.length > 0) throw new LlmError('protocol', `the model promised an action nothing takes ("${promised[0]}")`)
      const unsupported = checkReply(markers.ids, cited, clean, tools.sources)
      if (unsupported !== undefined) throw new LlmError('protocol', unsupported)
      if (cited.length === 0 && isQuestion(message, label)) throw new LlmError('protocol', 'the model answered a question without citing a source')
      return { reply: clean.trim(), citations: cited.map((id) => tools.sources.get(id)!.citation) }
    } catch (err) {
      if (opts.signal?.aborted === true) throw err
      this.stats.llmFallbacks++
      this.#opts.log.warn({ err: { kind: (err as LlmError).kind, message: (err as Error).message } }, 'language model failed; the grounded pipeline answers')
      if (sent) opts.onReset?.()
      return undefined
    }
  }
}
