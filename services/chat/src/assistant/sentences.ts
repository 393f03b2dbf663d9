import type { Citation } from '@chatsearch/contracts'
import type { KnowledgePassage, Reply } from './types.js'
import { stemSequence, stems } from './words.js'
import { answerCue, asksHow } from './question-cues.js'
import { scoreOf, WEIGHTS } from './relevance-weights.js'

/**
 * Extractive answers from the project's knowledge (decision 13): an FAQ pair is answered with its
 * answer verbatim; a page with the one to three of its sentences that answer the message (with the context
 * pageAnswer adds: the sentence after, the steps, a list, a short section whole), as written,
 * chosen by the fitted sentence model (sentenceCandidates: the message's words each holds and its
 * headings add, rare words, the shape the question asks for, closeness in meaning, its passage's
 * relevance), with the neighbouring sentences as context. Nothing
 * is reworded, so nothing is claimed that the sources do not say. Which passages answer at all is the
 * relevance scale's decision (evidence.ts), not this file's.
 */

/** Sentences an answer chooses at most, before the context pageAnswer adds to them (the sentence after, steps, lists, short sections). */
const MAX_SENTENCES = 3
/** The best sentence and the one after it are quoted together when they are this short together. */
const NEXT_SENTENCE_ROOM = 400
/** Characters of the list a sentence ending in ":" introduces, quoted with it at most. */
const LIST_MAX = 400
/** Characters of a procedure (the best sentence of a "how do I …?" and the steps after it) quoted at most. */
const PROCEDURE_MAX = 600
/**
 * Characters of a passage quoted whole when a sentence of it is quoted for a word of the message it
 * adds (not the best sentence's passage): chosen for one word, such a sentence comes without the
 * context the best one gets (the sentence after it, the steps, the list), and a section this short is
 * read as one answer ("If you offer free shipping, select … If shipping is charged, input …").
 */
const SHORT_PASSAGE = 400
/** Pairs one answer quotes at most. */
const MAX_FAQS = 2

/**
 * How close together a sentence holds the message's words, from 0 (fewer than two of them) to 1
 * (side by side): the shortest stretch of its words that holds every one of them it holds.
 */
export function proximity (wanted: string[], sequence: string[]): number {
  const held = new Set(wanted.filter((w) => sequence.includes(w)))
  if (held.size < 2) return 0
  let shortest = Infinity
  const last = new Map<string, number>()
  sequence.forEach((w, i) => {
    if (!held.has(w)) return
    last.set(w, i)
    if (last.size === held.size) shortest = Math.min(shortest, i - Math.min(...last.values()))
  })
  return (held.size - 1) / shortest
}

/** The citation of a passage; `confidence` is its relevance when weighed (evidence.ts), else its search score. */
export const citationOfPassage = (p: KnowledgePassage, relevance = p.score): Citation => ({
  source: p.kind === 'faq' ? 'faq' : 'knowledge',
  reference: p.kind === 'faq' ? p.documentId : `${p.documentId}#${p.chunkId}`,
  confidence: relevance,
  // A page's section path starts with its own title when the page has one heading above the others.
  title: p.kind === 'faq' || p.section === '' ? p.title : p.section.startsWith(p.title) ? p.section : `${p.title} › ${p.section}`,
  ...(p.url === undefined ? {} : { url: p.url })
})

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' })
/**
 * The sentences of a text, trimmed, each with whether a line break follows it in the text: the end of
 * a paragraph, a list item or a table row, which a quote keeps (a list quoted as one run of words
 * reads "… (0% speed) at 50°C, the fan …").
 */
export function segmentsOf (text: string): Array<{ text: string, lineEnd: boolean }> {
  return [...sentenceSegmenter.segment(text)]
    .map((s) => ({ text: s.segment.trim(), lineEnd: /\n\s*$/.test(s.segment) }))
    .filter((s) => s.text !== '')
}

export function sentencesOf (text: string): string[] {
  return segmentsOf(text).map((s) => s.text)
}

/** Sentences of one passage, in order, as one quote: a line break where the text has one after a sentence, else a space. */
function joinQuoted (sentences: Array<{ index: number, text: string, lineEnd: boolean }>): string {
  return sentences.map((c, i) => {
    const before = sentences[i - 1]
    return before === undefined ? c.text : `${before.lineEnd && before.index === c.index - 1 ? '\n' : ' '}${c.text}`
  }).join('')
}

/**
 * A passage that answers, with its relevance (evidence.ts); `nearby` for a chunk the search did not
 * find, next to the best one on its page: its relevance is that one's, but not its sentences' feature.
 */
export interface Answering { passage: KnowledgePassage, relevance: number, nearby?: boolean }

/**
 * The pairs to quote: the best, then one that answers a part of the message it leaves out ("Is
 * shipping free and how long does it take?" is two pairs).
 */
function faqsToQuote (wanted: string[], pairs: Answering[]): Answering[] {
  const chosen: Answering[] = []
  const held = new Set<string>()
  for (const pair of pairs) {
    const words = stems(pair.passage.title)
    if (chosen.length > 0 && words.every((w) => held.has(w) || !wanted.includes(w))) continue
    chosen.push(pair)
    for (const w of words) held.add(w)
    if (chosen.length === MAX_FAQS) break
  }
  return chosen
}

/** A pair's chunk is its question, then its answer: the answer is what is quoted. */
export function faqAnswer (pairs: Answering[], wanted: string[]): Reply {
  const faqs = faqsToQuote(wanted, pairs)
  const text = faqs.length === 1 ? faqs[0]!.passage.text : faqs.map((f) => `• ${f.passage.title} ${f.passage.text}`).join('\n')
  return { text, citations: faqs.map((f) => citationOfPassage(f.passage, f.relevance)) }
}

/** What a sentence is weighed by when choosing what to quote (relevance-weights.ts `sentence`). */
export interface SentenceFeatures {
  /** The share of the message's content words the sentence holds. */
  words: number
  /**
   * The share of them its section's headings hold that it does not: a sentence under "Returns" is
   * about returns. (Counting the words it holds too, as one share, was fitted and tried: as many
   * development questions answered, half the follow-ups.)
   */
  heading: number
  /** How close together it holds them (proximity()). */
  proximity: number
  /** 1 when it has the shape the question asks for (question-cues.ts). */
  cue: number
  /** Its cosine similarity with the message, 0 without an embedder. */
  meaning: number
  /** How far that similarity stands above the mean of the candidate sentences (0 when not above). */
  standout: number
  /** The share of the message's words it holds, each weighted by how few answering passages hold it. */
  rare: number
  /** 1 for the first sentence of its passage: what the section is about. */
  opening: number
  /** Its passage's relevance (evidence.ts); 0 for a chunk the search did not find (Answering `nearby`). */
  passage: number
}

export interface SentenceCandidate { passage: KnowledgePassage, index: number, text: string, lineEnd: boolean, sequence: string[], words: Set<string>, heading: Set<string>, features: SentenceFeatures, score: number }

/**
 * Every sentence of the answering pages, weighed as an answer to the message: its features and its
 * score on the fitted sentence model (relevance-weights.ts; a ranking score, not a chance), best first (between equals, the one
 * holding the words closer together, then the better passage's, then the earlier).
 */
export function sentenceCandidates (message: string, wanted: string[], pages: Answering[], closeness?: Map<string, number>): SentenceCandidate[] {
  const holders = new Map<string, number>()
  for (const { passage: p } of pages) {
    const words = new Set(stems(`${p.title} ${p.section} ${p.text}`))
    for (const w of wanted) if (words.has(w)) holders.set(w, (holders.get(w) ?? 0) + 1)
  }
  const cue = answerCue(message)
  const all = pages.flatMap(({ passage, relevance, nearby = false }, rank) => {
    const heading = new Set(stems(`${passage.title} ${passage.section}`))
    return segmentsOf(passage.text).map(({ text, lineEnd }, index) => {
      const sequence = stemSequence(text)
      return { passage, relevance: nearby ? 0 : relevance, rank, index, text, lineEnd, sequence, words: new Set(sequence), heading }
    })
  })
  const meaningOf = (c: { text: string }) => Math.max(0, closeness?.get(c.text) ?? 0)
  const meanMeaning = all.length === 0 ? 0 : all.reduce((sum, c) => sum + meaningOf(c), 0) / all.length
  const share = (held: (w: string) => boolean, weight: (w: string) => number = () => 1) => {
    const total = wanted.reduce((sum, w) => sum + weight(w), 0)
    return total === 0 ? 0 : wanted.reduce((sum, w) => sum + (held(w) ? weight(w) : 0), 0) / total
  }
  return all.map((c) => {
    const meaning = meaningOf(c)
    const features: SentenceFeatures = {
      words: share((w) => c.words.has(w)),
      heading: share((w) => !c.words.has(w) && c.heading.has(w)),
      proximity: proximity(wanted, c.sequence),
      cue: cue !== undefined && cue(c.text, wanted, c.sequence) ? 1 : 0,
      meaning,
      standout: Math.max(0, meaning - meanMeaning),
      rare: share((w) => c.words.has(w), (w) => 1 / (holders.get(w) ?? 1)),
      opening: c.index === 0 ? 1 : 0,
      passage: c.relevance
    }
    return { ...c, features, score: scoreOf(WEIGHTS.sentence, features) }
  }).sort((a, b) => b.score - a.score || b.features.proximity - a.features.proximity || a.rank - b.rank || a.index - b.index)
}

/**
 * The sentences of the answering pages that answer the message, quoted as written with their pages
 * cited: the best on the sentence model (sentenceCandidates), the sentence after it while short,
 * sentences that add words they lack (of its passage, or of another whose headings name one of the
 * message's words), each with the sentence after it while short, for "how do I …?" the steps after
 * it while they fit in PROCEDURE_MAX, the one before it when it opens with "It"/"This", the list a
 * sentence ending in ":" introduces, and the whole of another passage they quote from when it is
 * short (SHORT_PASSAGE).
 */
export function pageAnswer (message: string, wanted: string[], pages: Answering[], closeness?: Map<string, number>): Reply {
  const candidates: SentenceCandidate[] = sentenceCandidates(message, wanted, pages, closeness)
  const start = candidates[0]
  if (start === undefined) return { text: '', citations: [] }

  const chosen: SentenceCandidate[] = [start]
  const next = candidates.find((c) => c.passage === start.passage && c.index === start.index + 1)
  // What follows the sentence that matches the question is most often its answer ("… will throw a
  // generic error. Use an app password instead."): quoted before sentences that add other words.
  if (!asksHow(message) && next !== undefined && start.text.length + next.text.length <= NEXT_SENTENCE_ROOM) chosen.push(next)
  const held = new Set(chosen.flatMap((c) => [...c.words]))
  const adding: SentenceCandidate[] = []
  while (chosen.length < MAX_SENTENCES) {
    let best: { candidate: SentenceCandidate, gain: number } | undefined
    for (const c of candidates) {
      if (chosen.includes(c)) continue
      if (c.passage !== start.passage && !wanted.some((w) => c.heading.has(w))) continue
      const gain = wanted.filter((w) => !held.has(w) && c.words.has(w)).length
      if (gain > 0 && (best === undefined || gain > best.gain)) best = { candidate: c, gain }
    }
    if (best === undefined) break
    chosen.push(best.candidate)
    adding.push(best.candidate)
    for (const w of best.candidate.words) held.add(w)
  }
  if (asksHow(message)) {
    // A procedure: the steps that follow the best sentence in its passage, in order, while they fit.
    let length = chosen.reduce((n, c) => n + c.text.length, 0)
    for (const step of candidates.filter((c) => c.passage === start.passage && c.index > start.index).sort((a, b) => a.index - b.index)) {
      if (chosen.includes(step)) continue
      if (length + step.text.length > PROCEDURE_MAX) break
      chosen.push(step)
      length += step.text.length
    }
  }
  const previous = candidates.find((c) => c.passage === start.passage && c.index === start.index - 1)
  if (previous !== undefined && !chosen.includes(previous) && chosen.length < MAX_SENTENCES && /^(?:it|its|this|these|that|those|they|their|such)\b/i.test(start.text)) chosen.push(previous)

  // A sentence added for its words comes with the sentence after it while short, as the best one
  // does: chosen for a word, it is often the condition or the subject of what follows.
  for (const added of adding) {
    const after = candidates.find((c) => c.passage === added.passage && c.index === added.index + 1)
    if (after !== undefined && !chosen.includes(after) && added.text.length + after.text.length <= NEXT_SENTENCE_ROOM) chosen.push(after)
  }
  // Another short section a sentence is quoted from is quoted whole.
  for (const c of [...chosen]) {
    if (c.passage === start.passage || c.passage.text.length > SHORT_PASSAGE) continue
    for (const o of candidates) if (o.passage === c.passage && !chosen.includes(o)) chosen.push(o)
  }

  const used = pages.filter((p) => chosen.some((c) => c.passage === p.passage))
  const withList = (c: SentenceCandidate) => {
    if (!c.text.trimEnd().endsWith(':')) return [c]
    const rest = candidates.filter((o) => o.passage === c.passage && o.index > c.index).sort((a, b) => a.index - b.index)
    const list: SentenceCandidate[] = []
    for (const o of rest) {
      if (list.reduce((n, l) => n + l.text.length, 0) + o.text.length > LIST_MAX) break
      list.push(o)
    }
    return [c, ...list]
  }
  const quotes = used.map(({ passage }) => joinQuoted([...new Set(chosen.filter((c) => c.passage === passage).flatMap(withList))]
    .sort((a, b) => a.index - b.index)))
  const citations = used.map((p) => citationOfPassage(p.passage, p.relevance))
  const lines = used.map(({ passage }, i) => `${citations[i]!.title}: "${quotes[i]}"${passage.url === undefined ? '' : ` (${passage.url})`}`)
  const text = used.length === 1
    ? `From the shop's help pages, ${lines[0]}`
    : ['From the shop\'s help pages:', ...lines.map((l) => `• ${l}`)].join('\n')
  return { text, citations }
}
