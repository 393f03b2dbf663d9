import type { FastifyBaseLogger } from 'fastify'
import { decisionEvidenceMax, type Citation, type Classification, type Message } from '@chatsearch/contracts'
import type { Embedder } from '@chatsearch/embeddings'
import { normaliseText, type Classifier } from './classifier.js'
import { SentenceVectors } from './sentence-vectors.js'
import type { AssistantAnswer, HandoffCase, KnowledgePassage, KnowledgeRetrieval, Reply, Retrieval, RetrievalContext, Retriever, TurnDecision } from './types.js'
import type { Order } from './constraints/index.js'
import { handoffReply, itemsReply, templateReply, withOfferOfPerson } from './responder.js'
import { promisedActions } from './promises.js'
import { handoffReason } from './handoff.js'
import { faqAnswer, pageAnswer, sentenceCandidates, sentencesOf, type Answering, type SentenceCandidate } from './sentences.js'
import { clears, headingsOf, meaningOf, weighItems, weighPassages, type ItemEvidence, type PassageEvidence } from './evidence.js'
import { contentWords, stems } from './words.js'
import { aboutTheShop, ASKS_WHETHER_ONE_MAY, CHEAPER, FOLLOW_UP_MAX_WORDS, GRIEVANCE, INTERROGATIVE, LEANS_ON_PREVIOUS, MALFUNCTION, PRODUCT_SEEKING } from './lexicon.js'
import { citedLists, resolveReference } from './references.js'
import { detectLanguage, isGreeting, languageNote, type Language } from './language.js'
import { refineClassification } from './understand.js'
import { clarifyingReply, referenceReply } from './reference-reply.js'
import { normalise } from './constraints/text.js'
import { LlmError, type ChatMessage, type ChatModel } from './llm/client.js'
import { buildToolPrompt, citeFromReply, MarkerStripper } from './llm/prompt.js'
import { checkReply, TOOLS, ToolRunner } from './tools.js'

export type { AssistantAnswer }

export interface AssistantOptions {
  classifier: Classifier
  retriever: Retriever
  /** An OpenAI-compatible model writes the replies when given; the grounded responder otherwise. */
  model?: ChatModel
  /** Prompt size the model's input may use (items, history and the message). */
  promptTokens?: number
  /** Embeds sentences, to quote those closest in meaning to the message (words alone otherwise). */
  embedder?: Embedder
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
  knowledgeFailures: number
  llmFallbacks: number
}

/**
 * Everything a turn retrieved, weighed on the relevance scale (evidence.ts): what decides the reply.
 * `searched` is false when there is no search service to ask (no SEARCH_URL).
 */
export interface Evidence {
  retrieval: Retrieval
  knowledge: KnowledgeRetrieval
  items: ItemEvidence[]
  passages: PassageEvidence[]
  /** The words the message is retrieved with: the message, or with the turn it leans on. */
  text: string
  /**
   * The words a quoted sentence is chosen by: the message's own when it leans on the turn before (it
   * asks about something new in that turn's subject), else those of `text`.
   */
  focus: string[]
  /**
   * The other chunks of the best page that clears the threshold: its answer may be a section away
   * from the chunk the search found (the steps under "Enabling" when "Using" was found). Read when a
   * reply quotes the help pages, once: a turn answered with items or handed off for want of an
   * answer does not read it.
   */
  page: () => Promise<KnowledgePassage[]>
}

/** Items a reply names at most. */
const REPLY_ITEMS = 3
/** Content words a message of small talk has at most. */
const SMALL_TALK_WORDS = 2
/** Evidence of each source the team's transcript keeps. */
const DECISION_EVIDENCE = 5
/** Rounds of tool calls a model gets in one turn before its last answer must come. */
const MAX_TOOL_ROUNDS = 4

const byRelevance = (a: ItemEvidence, b: ItemEvidence) => b.relevance - a.relevance || a.item.rank - b.item.rank
const ORDERS: Record<Order, (a: ItemEvidence, b: ItemEvidence) => number> = {
  price: (a, b) => (a.item.price ?? Infinity) - (b.item.price ?? Infinity) || byRelevance(a, b),
  rating: (a, b) => (b.item.rating ?? -Infinity) - (a.item.rating ?? -Infinity) || byRelevance(a, b)
}

/**
 * The items a reply names, best first, or in the order asked ("the cheapest …"). An order picks among
 * the items of the kind the best matches are (their category): the cheapest of what was asked for,
 * not an accessory of it that also matched.
 */
export function itemsToShow (answering: ItemEvidence[], order: Order | undefined, asked: string[] = []): ItemEvidence[] {
  if (order === undefined) return answering.slice(0, REPLY_ITEMS)
  const weight = new Map<string, number>()
  for (const e of answering.slice(0, REPLY_ITEMS)) if (e.item.category !== undefined) weight.set(e.item.category, (weight.get(e.item.category) ?? 0) + e.relevance)
  const kind = [...weight].sort((a, b) => b[1] - a[1])[0]?.[0]
  const ofKind = kind === undefined ? answering : answering.filter((e) => e.item.category === kind)
  // Within the kind, the items named as asked ("espresso machine" in the title) when some are: an
  // espresso tamper shares the machines' category.
  const named = asked.length === 0 ? [] : ofKind.filter((e) => { const title = new Set(stems(e.item.title)); return asked.every((w) => title.has(w)) })
  return [...(named.length > 0 ? named : ofKind)].sort(ORDERS[order]).slice(0, REPLY_ITEMS)
}

/** The message asks for products in words ("do you sell…", "show me…") or by a bound on price, rating or order. */
function asksForProducts (message: string, retrieval: Retrieval): boolean {
  const c = retrieval.plan?.constraints
  const bounded = c !== undefined && (c.priceMin !== undefined || c.priceMax !== undefined || c.minRating !== undefined || c.order !== undefined)
  return bounded || PRODUCT_SEEKING.test(normalise(message))
}

/** The message asks for products, or names the kind, brand or colour of the catalog's items it wants. */
function seeksProducts (message: string, retrieval: Retrieval): boolean {
  const c = retrieval.plan?.constraints
  const named = c !== undefined && (c.brands.length > 0 || c.categories.length > 0 || c.colors.length > 0)
  return named || asksForProducts(message, retrieval)
}

/** Whether a message leans on the turn before it: short, and pointing back or going on ("and for the older one?"). */
const leans = (text: string) => text.split(' ').length <= FOLLOW_UP_MAX_WORDS && LEANS_ON_PREVIOUS.test(text)
/** Earlier user turns a chain of follow-ups is followed back through at most ("how do I mount it?", "can it do that at boot?", "and if it is unplugged?"). */
const SUBJECT_TURNS = 3

/**
 * The words to retrieve with: the message, or, when it leans on the turn before ("and how long does
 * that take?"), that turn's words too, and, while those lean in turn, the ones before them back to the
 * turn that set the subject (at most SUBJECT_TURNS back).
 */
export function retrievalText (message: string, history: Message[]): string {
  const users = history.filter((m) => m.role === 'user').map((m) => normalise(m.content))
  const text = normalise(message)
  if (users.length > 0 && users[users.length - 1] === text) users.pop()
  if (users.length === 0 || !leans(text)) return message
  const chain: string[] = []
  for (let i = users.length - 1; i >= 0 && chain.length < SUBJECT_TURNS; i--) {
    chain.unshift(users[i]!)
    if (!leans(users[i]!)) break
  }
  return `${chain.join(' ')} ${text}`
}

/** Splits a finished reply into word-sized deltas, for streaming a reply that was not generated token by token. */
function * wordDeltas (text: string): Generator<string> {
  for (const match of text.matchAll(/\s*\S+/g)) yield match[0]
}

/** The turn's decision as the team reads it: the route, why it was handed off, the best evidence of each source. */
function decisionOf (route: TurnDecision['route'], evidence: Evidence | undefined, citations: Citation[], reason?: HandoffCase): TurnDecision {
  const cited = new Set(citations.map((c) => `${c.source}:${c.reference}`))
  const entries = evidence === undefined
    ? citations.map((c) => ({ source: c.source, reference: c.reference, score: c.confidence, used: true }))
    : [
        ...evidence.items.slice(0, DECISION_EVIDENCE).map((e) => ({ source: 'catalog' as const, reference: e.item.id, score: e.relevance })),
        ...evidence.passages.slice(0, DECISION_EVIDENCE).map((e) => e.passage.kind === 'faq'
          ? { source: 'faq' as const, reference: e.passage.documentId, score: e.relevance }
          : { source: 'knowledge' as const, reference: `${e.passage.documentId}#${e.passage.chunkId}`, score: e.relevance })
      ].map((e) => ({ ...e, used: cited.has(`${e.source}:${e.reference}`) }))
  // A chunk quoted from near the one found on its page (answerPages) was weighed with it: listed too.
  const listed = new Set(entries.map((e) => `${e.source}:${e.reference}`))
  entries.push(...citations.filter((c) => !listed.has(`${c.source}:${c.reference}`)).map((c) => ({ source: c.source, reference: c.reference, score: c.confidence, used: true })))
  return { route, ...(reason === undefined ? {} : { handoff_reason: reason }), evidence: entries.sort((a, b) => b.score - a.score).slice(0, decisionEvidenceMax) }
}

/** Pages one answer quotes from at most. */
const ANSWER_PAGES = 3
/** Chunks of the best page on either side of the one the search found that an answer also chooses from. */
const PAGE_WINDOW = 4

/**
 * The passages an answer chooses its sentences from: the best that clear the threshold, then the
 * chunks near the best one on its page (`nearby`: the search did not find them, so their sentences
 * are chosen by their own words and meaning alone; cited with the page's relevance).
 */
function answerPages (answering: PassageEvidence[], page: KnowledgePassage[]): Answering[] {
  const pages: Answering[] = answering.filter((e) => e.kind === 'passage').slice(0, ANSWER_PAGES)
  const best = pages[0]
  const at = best === undefined ? -1 : page.findIndex((p) => p.documentId === best.passage.documentId && p.chunkId === best.passage.chunkId)
  if (best === undefined || at < 0) return pages
  const taken = new Set(pages.map((p) => `${p.passage.documentId}#${p.passage.chunkId}`))
  const near = page.slice(Math.max(0, at - PAGE_WINDOW), at + PAGE_WINDOW + 1).filter((p) => !taken.has(`${p.documentId}#${p.chunkId}`))
  return [...pages, ...near.map((passage) => ({ passage, relevance: best.relevance, nearby: true }))]
}

/**
 * The reply pipeline (decision 17): every turn that is not small talk or a follow-up about items named
 * before retrieves from the catalog and the knowledge at once; the evidence, weighed on one relevance
 * scale, decides what answers. The message's class is kept and shapes tone and handoff.
 */
export class Assistant {
  readonly stats: AssistantStats = { retrievalFailures: 0, knowledgeFailures: 0, llmFallbacks: 0 }
  readonly #opts: AssistantOptions
  readonly #vectors: SentenceVectors | undefined

  constructor (opts: AssistantOptions) {
    this.#opts = opts
    this.#vectors = opts.embedder === undefined ? undefined : new SentenceVectors(opts.embedder)
  }

  /** Sentences whose embeddings are kept (at most SENTENCE_CACHE_ENTRIES; 0 without an embedder). */
  get cachedSentences (): number { return this.#vectors?.size ?? 0 }

  /** Messages whose embeddings are kept (at most MESSAGE_CACHE_ENTRIES; 0 without an embedder). */
  get cachedMessages (): number { return this.#vectors?.messages ?? 0 }

  /** The reply the help pages give: an FAQ pair's answer, or the sentences of the pages that answer. */
  async #knowledgeReply (message: string, evidence: Evidence, answering: PassageEvidence[]): Promise<{ reply: Reply, route: 'faq' | 'knowledge' } | undefined> {
    if (answering[0]!.kind === 'faq') return { reply: faqAnswer(answering.filter((e) => e.kind === 'faq'), stems(evidence.text)), route: 'faq' }
    const pages = answerPages(answering, await evidence.page())
    const reply = pageAnswer(message, evidence.focus, pages, await this.#closeness(evidence.text, pages))
    // Passages with no sentence to quote (a page of headings alone) answer nothing.
    return reply.text === '' ? undefined : { reply, route: 'knowledge' }
  }

  /** Each sentence of the pages' cosine similarity with the text, by sentence; undefined without an embedder or when it fails. */
  async #closeness (text: string, pages: Answering[]): Promise<Map<string, number> | undefined> {
    const sentences = [...new Set(pages.flatMap((p) => sentencesOf(p.passage.text)))]
    const similar = await this.#similarities(text, sentences)
    return similar.length === 0 ? undefined : new Map(sentences.map((s, i) => [s, similar[i]!]))
  }

  /**
   * The sentences a page answer chooses from, weighed (sentences.ts), for the pages that clear the
   * threshold: what the evaluation fits the sentence model on. Empty when an FAQ pair or nothing answers.
   */
  async sentenceCandidates (message: string, evidence: Evidence): Promise<SentenceCandidate[]> {
    const answering = evidence.passages.filter(clears)
    if (answering.length === 0 || answering[0]!.kind === 'faq') return []
    const pages = answerPages(answering, await evidence.page())
    return sentenceCandidates(message, evidence.focus, pages, await this.#closeness(evidence.text, pages))
  }

  /**
   * The classifier's label, from the message's vector that choosing what to quote compares sentences
   * with, when both embed with one encoder and the message is as the classifier reads it: the
   * message is embedded once, not twice.
   */
  async #classify (message: string): Promise<{ label: Classification, confidence: number }> {
    const { classifier, embedder } = this.#opts
    if (this.#vectors === undefined || classifier.encoder !== embedder || normaliseText(message) !== message) {
      return await classifier.classify(message)
    }
    let vector: Float32Array | undefined
    try {
      vector = await this.#vectors.message(message)
    } catch {
      // The classifier embeds it itself, and reports what fails.
    }
    return await classifier.classify(message, vector)
  }

  /**
   * Each passage's cosine similarity with the text: of its opening (meaningOf), of its headings
   * (headingsOf) and of its closest sentence; empty without an embedder.
   */
  async #passageSimilarities (text: string, passages: KnowledgePassage[]): Promise<[number[], number[], number[]]> {
    const sentences = passages.map((p) => p.kind === 'faq' ? [] : sentencesOf(p.text))
    const all = await this.#similarities(text, [...passages.map(meaningOf), ...passages.map(headingsOf), ...sentences.flat()])
    if (all.length === 0) return [[], [], []]
    let at = 2 * passages.length
    const closest = sentences.map((ss) => { const of = all.slice(at, at + ss.length); at += ss.length; return Math.max(0, ...of) })
    return [all.slice(0, passages.length), all.slice(passages.length, 2 * passages.length), closest]
  }

  /** Each text's cosine similarity with the message; none without an embedder or when it fails (words alone then decide). */
  async #similarities (message: string, texts: string[]): Promise<number[]> {
    if (this.#vectors === undefined || texts.length === 0) return []
    try {
      return await this.#vectors.similarities(message, texts)
    } catch (err) {
      this.#opts.log.warn({ err }, 'texts could not be embedded; weighing by their words')
      return []
    }
  }

  /**
   * One turn. Retrieval starts at once, while the message is classified: a greeting and a follow-up
   * about the items just named are the only turns that do not retrieve. Then:
   * - an action on the customer's own order or account, or a person asked for: handed off, with what
   *   the help pages say about it;
   * - a complaint: the help pages' answer when they have one and the customer describes a problem
   *   rather than a grievance (with the offer of a person); handed off otherwise, as a complaint when
   *   it is a grievance or about the shop's doing, else as a question nothing here answers;
   * - else the best evidence that clears the threshold answers: an FAQ, the help pages' sentences or
   *   items (a shopper looking for products is answered with items when any clears);
   * - nothing clears: "nothing matches" to a shopper looking for products, small talk to small talk,
   *   and a handoff to a question nobody can answer (a message with a subject of its own is one).
   */
  async answer (projectId: string, message: string, history: Message[], opts: AnswerOptions = {}): Promise<AssistantAnswer> {
    const explicit = handoffReason(message)
    const greeting = isGreeting(message)
    const reference = explicit === undefined && !greeting ? resolveReference(message, history) : undefined
    const gathering = greeting || reference !== undefined || this.#opts.model !== undefined
      ? undefined
      : this.gather(projectId, message, history, opts)
    if (gathering !== undefined) {
      gathering.catch(() => {})
      // The requests go out before an embedder that computes on this thread holds it.
      await new Promise((resolve) => setImmediate(resolve))
    }
    const classified = await this.#classify(message)
    // The classifier learnt English: a greeting in any language is a greeting, and a few plain cases are corrected.
    let label: Classification = refineClassification(message, classified.label)
    const language = detectLanguage(message)
    const note = languageNote(language)
    // A reply written here (not by a model) is in English: a shopper writing in another language is told so.
    const send = (reply: Reply, route: TurnDecision['route'], evidence?: Evidence, reason?: HandoffCase): AssistantAnswer => {
      const text = note === undefined ? reply.text : `${note}\n\n${reply.text}`
      if (opts.onDelta !== undefined) for (const delta of wordDeltas(text)) opts.onDelta(delta)
      return { classification: label, reply: text, citations: reply.citations, handoff: reason !== undefined, decision: decisionOf(route, evidence, reply.citations, reason) }
    }
    // With a model, it answers what a person need not, greetings included (in the shopper's language);
    // handoffs are worded here, honestly, always.
    if (explicit === undefined && label !== 'complaint' && this.#opts.model !== undefined) {
      const fromModel = await this.#modelReply(this.#opts.model, projectId, message, history, label, language, opts)
      if (fromModel !== undefined) return { classification: label, ...fromModel, handoff: false, decision: decisionOf('model', undefined, fromModel.citations) }
    }
    if (greeting) return send(templateReply('greeting', message), 'small_talk')
    // A follow-up about items named before ("how much is the second one?") is answered from them, and
    // worded as a question it is one, whatever the classifier made of a short "what colour is it?".
    if (reference !== undefined && label === 'other' && INTERROGATIVE.test(message.trim())) label = 'question'
    if (reference !== undefined && 'ambiguous' in reference) return send(clarifyingReply(reference.ambiguous), 'clarify')
    if (reference !== undefined) {
      const found = await this.#opts.retriever.items(projectId, reference.items.map((c) => c.reference), { ...(opts.requestId === undefined ? {} : { requestId: opts.requestId }) })
      if (found.failure === undefined) return send(referenceReply(reference, found.items), 'follow_up')
      this.stats.retrievalFailures++
      this.#opts.log.warn({ projectId, reason: found.failure }, 'catalog items could not be read')
      return send(templateReply('unavailable', message), 'unavailable')
    }
    const evidence = await (gathering ?? this.gather(projectId, message, history, opts))
    opts.signal?.throwIfAborted()
    const { retrieval, knowledge } = evidence
    const passages = evidence.passages.filter(clears)
    // The help pages' answer is composed (its sentences embedded) only for a reply that uses it.
    const fromKnowledge = () => passages.length === 0 ? Promise.resolve(undefined) : this.#knowledgeReply(message, evidence, passages)

    const question = INTERROGATIVE.test(message.trim())
    const grievance = GRIEVANCE.test(message)
    // Something of the customer's that fails ("my earbuds won't charge anymore") asks for help with
    // it: items that share its words do not answer it, and a classifier that took it for a request was
    // misled by them. Described, it is a complaint, answered from the help pages when they solve it
    // (below); asked ("my earbuds won't charge, can you help?"), a question. Naming the kind of item
    // that fails is not asking for another: only words that ask for products, or a bound on price,
    // rating or order, make it a request.
    const asks = asksForProducts(message, retrieval)
    const malfunction = explicit === undefined && !asks && MALFUNCTION.test(message)
    if (malfunction && label === 'request') label = question ? 'question' : 'complaint'
    // Items do not answer a question of whether something may be done either, even with a kind of item
    // the catalog sells ("can I return earphones I opened?"), and it asks for no products.
    const mayI = !asks && ASKS_WHETHER_ONE_MAY.test(message.trim())
    const seeks = !malfunction && !mayI && seeksProducts(message, retrieval)
    const items = malfunction || mayI ? [] : evidence.items.filter(clears)
    // The classifier learnt shop talk, not every shop's subject: what the sources answer corrects it.
    // A message worded as a question that they answer is a question; one that finds the items a
    // shopper asks for ("wireless mouse", "something to store more files on my PC") is a request.
    // A problem the customer describes ("my files stopped syncing") is taken for a complaint by the
    // classifier; when it is no grievance and the help pages answer it, the customer asks for help:
    // a question, still answered as a complaint is (with the offer of a person).
    const problem = label === 'complaint' && !question && !grievance && explicit === undefined && passages.length > 0
    if (label !== 'question' && label !== 'request' && !grievance && explicit === undefined) {
      if ((question || problem) && (items.length > 0 || passages.length > 0)) label = 'question'
      else if (!question && items.length > 0 && (seeks || passages.length === 0)) label = 'request'
    }

    if (explicit !== undefined) return send(handoffReply(explicit, message, (await fromKnowledge())?.reply), 'handoff', evidence, explicit)
    if (label === 'complaint' || problem) {
      const answer = await fromKnowledge()
      if (grievance || (answer === undefined && aboutTheShop(message))) {
        label = 'complaint'
        return send(handoffReply('complaint', message, answer?.reply), 'handoff', evidence, 'complaint')
      }
      // A problem of the customer's own ("the pi gets hot and slows down") that the help pages do not
      // solve is still a request for help, asked of the team: a question nothing here answers.
      if (answer === undefined) {
        label = 'question'
        return send(handoffReply('unanswered', message, undefined), 'handoff', evidence, 'unanswered')
      }
      return send(withOfferOfPerson(answer.reply, message), answer.route, evidence)
    }
    // Praise or thanks with no question in it, that nothing answers, is small talk.
    if (label === 'feedback' && !question && items.length === 0 && passages.length === 0) return send(templateReply('feedback', message), 'small_talk', evidence)
    const bestItem = items[0]?.relevance ?? 0
    const bestPassage = passages[0]?.relevance ?? 0
    // A shopper looking for products gets items when any answers, unless an FAQ is surer; a question gets what answers best.
    const knowledgeAnswers = passages.length > 0 &&
      (items.length === 0 || (seeks ? passages[0]!.kind === 'faq' && bestPassage > bestItem : bestPassage >= bestItem))
    const answer = knowledgeAnswers ? await fromKnowledge() : undefined
    if (answer !== undefined) {
      // What the help pages answer was asked about, however it was worded ("the green light flashes 7 times").
      if (label === 'other') label = 'question'
      return send(answer.reply, answer.route, evidence)
    }
    if (items.length > 0) return send(itemsReply({ message, items: itemsToShow(items, retrieval.plan?.constraints.order, stems(retrieval.plan?.query ?? '')) }), 'catalog', evidence)

    if (retrieval.failure !== undefined && (seeks || knowledge.failure !== undefined)) return send(templateReply('unavailable', message), 'unavailable', evidence)
    // Without a search service nothing was searched, and nothing can be said to be missing.
    const searched = retrieval.plan !== undefined && knowledge.failure === undefined
    if (!searched) return send(templateReply('noMatch', message), 'no_match', evidence)
    if (seeks) return send(templateReply('noMatch', message), 'no_match', evidence)
    // Chit-chat ("ok", "cool, thanks") gets small talk; a statement with a subject of its own that
    // nothing answers ("it gets hot and slows down") is a matter for the team, like a question.
    if ((label === 'other' || label === 'feedback') && !question && contentWords(message).length <= SMALL_TALK_WORDS) return send(templateReply(label, message), 'small_talk', evidence)
    // Handed to the team as a question nobody here answers, it is one, whatever the classifier made of it.
    if (label === 'other') label = 'question'
    return send(handoffReply('unanswered', message, undefined), 'handoff', evidence, 'unanswered')
  }

  /**
   * The evidence for a message: the catalog (by keyword and by meaning, with the constraints the
   * message states) and the knowledge, asked at once, each weighed on the relevance scale. A
   * message that leans on the turn before is retrieved with that turn's words too, and its knowledge
   * with its own words alone when nothing clears so.
   */
  async gather (projectId: string, message: string, history: Message[], opts: Pick<AnswerOptions, 'requestId'> = {}): Promise<Evidence> {
    const text = retrievalText(message, history)
    const context: RetrievalContext = {
      ...(opts.requestId === undefined ? {} : { requestId: opts.requestId }),
      ...(text === message ? {} : { semanticText: text }),
      ...await this.#cheaperThan(projectId, message, history, opts)
    }
    const [retrieval, knowledge] = await Promise.all([
      this.#opts.retriever.retrieve(projectId, message, history, context),
      this.#opts.retriever.knowledge(projectId, text, context)
    ])
    if (retrieval.failure !== undefined) {
      this.stats.retrievalFailures++
      this.#opts.log.warn({ projectId, reason: retrieval.failure }, 'catalog search failed; answering without items')
    }
    if (knowledge.failure !== undefined) {
      this.stats.knowledgeFailures++
      this.#opts.log.warn({ projectId, reason: knowledge.failure }, 'knowledge search failed; answering without it')
    }
    // What an item must hold: the keywords, and the brand, category and colour named (a filter holds
    // them to it; "any Nike stuff?" is all brand), else the message's own words.
    const c = retrieval.plan?.constraints
    const asked = stems([retrieval.plan?.query ?? '', ...(c === undefined ? [] : [...c.brands, ...c.categories, ...c.colors])].join(' '))
    let passages = weighPassages(knowledge.passages, stems(text), ...await this.#passageSimilarities(text, knowledge.passages))
    let best = passages.find(clears)
    // A follow-up may name a subject of its own ("can I return earphones if I opened them?" after a
    // list of earbuds): when nothing clears with the conversation's words, its own words are searched.
    // Only then: its own words alone ("where do I create one of those?") would find a wrong page where
    // the conversation's find the right one.
    let own = false
    if (best === undefined && text !== message && knowledge.failure === undefined) {
      const alone = await this.#opts.retriever.knowledge(projectId, message, context)
      if (alone.failure !== undefined) {
        this.stats.knowledgeFailures++
        this.#opts.log.warn({ projectId, reason: alone.failure }, 'knowledge search with the message\'s own words failed; answering from the conversation\'s')
      }
      const weighed = alone.failure === undefined ? weighPassages(alone.passages, stems(message), ...await this.#passageSimilarities(message, alone.passages)) : []
      const found = weighed.find(clears)
      if (found !== undefined) {
        passages = weighed
        best = found
        own = true
      }
    }
    let reading: Promise<KnowledgePassage[]> | undefined
    const page = async (): Promise<KnowledgePassage[]> => {
      if (best?.kind !== 'passage') return []
      reading ??= this.#opts.retriever.page(projectId, best.passage.documentId, context, best.passage).then((found) => {
        if (found.failure !== undefined) this.#opts.log.warn({ projectId, reason: found.failure }, 'help page could not be read; answering from the chunks found')
        return found.passages
      })
      return await reading
    }
    return {
      retrieval,
      knowledge,
      items: weighItems(retrieval.items, asked.length === 0 ? stems(text) : asked),
      passages,
      text: own ? message : text,
      focus: text !== message && stems(message).length > 0 ? stems(message) : stems(text),
      page
    }
  }

  /**
   * "cheaper?", "any less expensive ones?" after a list, naming no price: below the cheapest item of
   * that list, as the catalog prices it now.
   */
  async #cheaperThan (projectId: string, message: string, history: Message[], opts: Pick<AnswerOptions, 'requestId'>): Promise<{ cheaperThan?: number }> {
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
      if (cited.length === 0 && (label === 'question' || INTERROGATIVE.test(message.trim()))) throw new LlmError('protocol', 'the model answered a question without citing a source')
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
