import type { Citation } from '@chatsearch/contracts'
import type { KnowledgePassage, Reply } from './types.js'
import { stemSequence, stems } from './words.js'
import { answerCue, asksHow } from './question-cues.js'

/**
 * Extractive answers from the project's knowledge (decision 13): an FAQ pair is answered with its
 * answer verbatim; a page with the one to three of its sentences that answer the message, as written,
 * chosen by their words (the message's, the rarer ones weighing more, close together, of the shape the
 * question asks for), with the section's headings and the neighbouring sentences as context. Nothing
 * is reworded, so nothing is claimed that the sources do not say. Which passages answer at all is the
 * relevance scale's decision (evidence.ts), not this file's.
 */

/** Sentences an answer quotes at most. */
const MAX_SENTENCES = 3
/** The best sentence and the one after it are quoted together when they are this short together. */
const NEXT_SENTENCE_ROOM = 400
/** Characters of the list a sentence ending in ":" introduces, quoted with it at most. */
const LIST_MAX = 400
/** Characters of a procedure (the best sentence of a "how do I …?" and the steps after it) quoted at most. */
const PROCEDURE_MAX = 600
/** A heading's words count for half a sentence's: "Returns" says what a page is about, not what it says. */
const HEADING_WEIGHT = 0.5
/** At most half a word for holding the message's words side by side. */
const PROXIMITY_WEIGHT = 0.5
/** A sentence of the shape the question asks for counts as one more word. */
const CUE_WEIGHT = 1
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
export function sentencesOf (text: string): string[] {
  return [...sentenceSegmenter.segment(text)].map((s) => s.segment.trim()).filter((s) => s !== '')
}

/** A passage that answers, with its relevance (evidence.ts). */
export interface Answering { passage: KnowledgePassage, relevance: number }

interface Candidate { passage: KnowledgePassage, index: number, text: string, sequence: string[], words: Set<string>, heading: Set<string> }

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

/**
 * The sentences of the answering pages that answer the message, quoted as written with their pages
 * cited: the best sentence (most of the message's words, headings at half weight, close together, of
 * the shape asked; between equals, the closest in meaning when `closeness` gives each sentence's
 * similarity with the message; then the rarer words; then the better passage), sentences that add
 * words it lacks (of its passage, or of another whose headings name one of the message's words), the
 * sentence after it while short (for "how do I …?", the steps after it while they fit in
 * PROCEDURE_MAX), the one before it when it opens with "It"/"This", and the list a sentence ending in
 * ":" introduces. Meaning breaks ties rather than weighing beside the words: on the development help
 * sets it moved one question of 57 either way (33 answered as a tie-break or as one or two words'
 * worth, 34 without it).
 */
export function pageAnswer (message: string, wanted: string[], pages: Answering[], closeness?: Map<string, number>): Reply {
  const passages = pages.map((p) => p.passage)
  const candidates: Candidate[] = passages.flatMap((passage) => {
    const heading = new Set(stems(`${passage.title} ${passage.section}`))
    return sentencesOf(passage.text).map((text, index) => {
      const sequence = stemSequence(text)
      return { passage, index, text, sequence, words: new Set(sequence), heading }
    })
  })
  const holders = new Map<string, number>()
  for (const p of passages) {
    const words = new Set(stems(`${p.title} ${p.section} ${p.text}`))
    for (const w of wanted) if (words.has(w)) holders.set(w, (holders.get(w) ?? 0) + 1)
  }
  const rank = new Map(passages.map((p, i) => [p, i]))
  const rarity = (c: Candidate) => wanted.filter((w) => c.words.has(w)).reduce((sum, w) => sum + 1 / (holders.get(w) ?? 1), 0)
  const cue = answerCue(message)
  const value = (c: Candidate) => wanted.reduce((sum, w) => sum + (c.words.has(w) ? 1 : 0) + (c.heading.has(w) ? HEADING_WEIGHT : 0), 0) +
    PROXIMITY_WEIGHT * proximity(wanted, c.sequence) + (cue !== undefined && cue(c.text, wanted, c.sequence) ? CUE_WEIGHT : 0)
  const meaning = (c: Candidate) => closeness?.get(c.text) ?? 0
  const better = (c: Candidate, than: Candidate): boolean => {
    if (value(c) !== value(than)) return value(c) > value(than)
    if (meaning(c) !== meaning(than)) return meaning(c) > meaning(than)
    if (rarity(c) !== rarity(than)) return rarity(c) > rarity(than)
    return rank.get(c.passage)! < rank.get(than.passage)!
  }
  let first: Candidate | undefined
  for (const c of candidates) {
    if (wanted.every((w) => !c.words.has(w))) continue
    if (first === undefined || better(c, first)) first = c
  }
  // The search found the passage by its meaning, not its words: its opening says what it is about.
  first ??= candidates.find((c) => c.passage === passages[0])
  if (first === undefined) return { text: '', citations: [] }
  const start = first

  const chosen: Candidate[] = [start]
  const held = new Set(start.words)
  while (chosen.length < MAX_SENTENCES) {
    let best: { candidate: Candidate, gain: number } | undefined
    for (const c of candidates) {
      if (chosen.includes(c)) continue
      if (c.passage !== start.passage && !wanted.some((w) => c.heading.has(w))) continue
      const gain = wanted.filter((w) => !held.has(w) && c.words.has(w)).length
      if (gain > 0 && (best === undefined || gain > best.gain)) best = { candidate: c, gain }
    }
    if (best === undefined) break
    chosen.push(best.candidate)
    for (const w of best.candidate.words) held.add(w)
  }
  const next = candidates.find((c) => c.passage === start.passage && c.index === start.index + 1)
  if (asksHow(message)) {
    // A procedure: the steps that follow the best sentence in its passage, in order, while they fit.
    let length = chosen.reduce((n, c) => n + c.text.length, 0)
    for (const step of candidates.filter((c) => c.passage === start.passage && c.index > start.index).sort((a, b) => a.index - b.index)) {
      if (chosen.includes(step)) continue
      if (length + step.text.length > PROCEDURE_MAX) break
      chosen.push(step)
      length += step.text.length
    }
  } else if (next !== undefined && !chosen.includes(next) && chosen.length < MAX_SENTENCES && start.text.length + next.text.length <= NEXT_SENTENCE_ROOM) chosen.push(next)
  const previous = candidates.find((c) => c.passage === start.passage && c.index === start.index - 1)
  if (previous !== undefined && !chosen.includes(previous) && chosen.length < MAX_SENTENCES && /^(?:it|its|this|these|that|those|they|their|such)\b/i.test(start.text)) chosen.push(previous)

  const used = pages.filter((p) => chosen.some((c) => c.passage === p.passage))
  const withList = (c: Candidate) => {
    if (!c.text.trimEnd().endsWith(':')) return [c]
    const rest = candidates.filter((o) => o.passage === c.passage && o.index > c.index).sort((a, b) => a.index - b.index)
    const list: Candidate[] = []
    for (const o of rest) {
      if (list.reduce((n, l) => n + l.text.length, 0) + o.text.length > LIST_MAX) break
      list.push(o)
    }
    return [c, ...list]
  }
  const quotes = used.map(({ passage }) => [...new Set(chosen.filter((c) => c.passage === passage).flatMap(withList))]
    .sort((a, b) => a.index - b.index).map((c) => c.text).join(' '))
  const citations = used.map((p) => citationOfPassage(p.passage, p.relevance))
  const lines = used.map(({ passage }, i) => `${citations[i]!.title}: "${quotes[i]}"${passage.url === undefined ? '' : ` (${passage.url})`}`)
  const text = used.length === 1
    ? `From the shop's help pages, ${lines[0]}`
    : ['From the shop\'s help pages:', ...lines.map((l) => `• ${l}`)].join('\n')
  return { text, citations }
}
