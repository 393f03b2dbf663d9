import type { Citation } from '@chatsearch/contracts'
import type { KnowledgePassage } from './retriever.js'
import { coverage, stemSequence, stems } from './words.js'
import { answerCue } from './question-cues.js'

/**
 * Extractive answers from the project's knowledge (decision 13): an FAQ whose question is the
 * message's is answered with its answer verbatim; otherwise the one to three sentences of the best
 * passages that hold the message's words, as written, with their pages cited. Nothing is reworded,
 * so nothing is claimed that the sources do not say.
 */
export interface KnowledgeAnswer {
  kind: 'faq' | 'knowledge'
  text: string
  citations: Citation[]
  /** The share of the message's words the answer holds (its sentences, or its pages' headings at half weight). */
  coverage: number
}

/** Passages below this score, or far below the best one, are not read. */
const MIN_SCORE = 0.25
const RELATIVE_TO_BEST = 0.6
/** A pair answers when its question and the message share this much of each other's words. */
const FAQ_OVERLAP = 0.6
/** Pairs one answer quotes at most. */
const MAX_FAQS = 2
/** Sentences an answer quotes at most, and the share of the message's words they must hold together. */
const MAX_SENTENCES = 3
const MIN_COVERAGE = 0.5
/** The best sentence and the one after it are quoted together when they are this short together. */
const NEXT_SENTENCE_ROOM = 400
/** Characters of the list a sentence ending in ":" introduces, quoted with it at most. */
const LIST_MAX = 400
const CONFIDENT_SCORE = 0.6
const MIN_COVERAGE_CONFIDENT = 0.3
/** A heading's words count for half a sentence's: "Returns" says what a page is about, not what it says. */
const HEADING_WEIGHT = 0.5
/** A word of the message that one passage holds, or none, weighs this many of the others. */
const SPECIFIC_WEIGHT = 2
/** At most half a word for holding the message's words side by side. */
const PROXIMITY_WEIGHT = 0.5
/** A sentence of the shape the question asks for counts as one more word. */
const CUE_WEIGHT = 1

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

export const citationOfPassage = (p: KnowledgePassage): Citation => ({
  source: p.kind === 'faq' ? 'faq' : 'knowledge',
  reference: p.kind === 'faq' ? p.documentId : `${p.documentId}#${p.chunkId}`,
  confidence: p.score,
  // A page's section path starts with its own title when the page has one heading above the others.
  title: p.kind === 'faq' || p.section === '' ? p.title : p.section.startsWith(p.title) ? p.section : `${p.title} › ${p.section}`,
  ...(p.url === undefined ? {} : { url: p.url })
})

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' })
function sentencesOf (text: string): string[] {
  return [...sentenceSegmenter.segment(text)].map((s) => s.segment.trim()).filter((s) => s !== '')
}

interface Candidate { passage: KnowledgePassage, index: number, text: string, sequence: string[], words: Set<string>, heading: Set<string> }

/**
 * The pairs whose question is the message's, best first: the best one, then others that answer a
 * part of the message it leaves out ("Is shipping free and how long does it take?" is two pairs).
 */
function faqMatches (wanted: string[], passages: KnowledgePassage[]): KnowledgePassage[] {
  const matching = passages.filter((p) => {
    if (p.kind !== 'faq') return false
    const question = stems(p.title)
    const shared = question.filter((w) => wanted.includes(w)).length
    return shared > 0 && shared / wanted.length >= FAQ_OVERLAP && shared / question.length >= FAQ_OVERLAP
  })
  const chosen: KnowledgePassage[] = []
  const held = new Set<string>()
  for (const p of matching) {
    const words = stems(p.title)
    if (chosen.length > 0 && words.every((w) => held.has(w) || !wanted.includes(w))) continue
    chosen.push(p)
    for (const w of words) held.add(w)
    if (chosen.length === MAX_FAQS) break
  }
  return chosen
}

/**
 * The share of the message's words the answer holds, its headings' words at half weight. With
 * `holders` (how many passages hold each word), a word that one passage or none holds weighs double:
 * it is what the message is about. "Does the dashboard work with a barcode scanner?" is not answered
 * by a page about the dashboard (none holds "barcode"); "Do orders to Alaska take longer?" is by the
 * one page that names Alaska.
 */
function weightedCoverage (wanted: string[], words: Set<string>, heading: Set<string>, holders?: Map<string, number>): number {
  if (wanted.length === 0) return 0
  let score = 0
  let total = 0
  for (const w of wanted) {
    const weight = holders !== undefined && (holders.get(w) ?? 0) <= 1 ? SPECIFIC_WEIGHT : 1
    score += weight * (words.has(w) ? 1 : heading.has(w) ? HEADING_WEIGHT : 0)
    total += weight
  }
  return score / total
}

/** The passages worth reading: good enough on their own and close to the best. */
export function readablePassages (passages: KnowledgePassage[]): KnowledgePassage[] {
  const best = Math.max(0, ...passages.map((p) => p.score))
  return passages.filter((p) => p.score >= MIN_SCORE && p.score >= best * RELATIVE_TO_BEST)
}

/** The answer the knowledge holds for the message, or undefined when it holds none. */
export function answerFromKnowledge (message: string, passages: KnowledgePassage[]): KnowledgeAnswer | undefined {
  const wanted = stems(message)
  const readable = readablePassages(passages)
  if (wanted.length === 0 || readable.length === 0) return undefined

  const faqs = faqMatches(wanted, readable)
  if (faqs.length > 0) {
    const present = new Set(faqs.flatMap((faq) => [...stems(faq.title), ...stems(faq.text)]))
    // One pair: its answer as it is. Several: each answer under its question.
    const text = faqs.length === 1 ? faqs[0]!.text : faqs.map((faq) => `• ${faq.title} ${faq.text}`).join('\n')
    return { kind: 'faq', text, citations: faqs.map(citationOfPassage), coverage: coverage(wanted, present) }
  }

  const candidates: Candidate[] = readable.flatMap((passage) => {
    // A pair's question is its heading: its answer's sentences are what is quoted.
    const heading = new Set(stems(`${passage.title} ${passage.section}`))
    return sentencesOf(passage.text).map((text, index) => {
      const sequence = stemSequence(text)
      return { passage, index, text, sequence, words: new Set(sequence), heading }
    })
  })
  // The first sentence holds most of the message's words, its headings counting half ("How to
  // return an item" says what its sentences are about); between equals, the one with the rarer words
  // ("Alaska" over "order"), then the better passage.
  const holders = new Map<string, number>()
  for (const p of readable) {
    const words = new Set(stems(`${p.title} ${p.section} ${p.text}`))
    for (const w of wanted) if (words.has(w)) holders.set(w, (holders.get(w) ?? 0) + 1)
  }
  const rarity = (c: Candidate) => wanted.filter((w) => c.words.has(w)).reduce((sum, w) => sum + 1 / (holders.get(w) ?? 1), 0)
  // A sentence that holds the words close together ("an order is created once…") is about them more
  // than one that holds them apart ("the order line … allocations are created"); one of the shape
  // the question asks for (a number for "how many", a condition for "when") answers it.
  const cue = answerCue(message)
  const value = (c: Candidate) => wanted.reduce((sum, w) => sum + (c.words.has(w) ? 1 : 0) + (c.heading.has(w) ? HEADING_WEIGHT : 0), 0) +
    PROXIMITY_WEIGHT * proximity(wanted, c.sequence) + (cue !== undefined && cue(c.text, wanted, c.sequence) ? CUE_WEIGHT : 0)
  let first: Candidate | undefined
  for (const c of candidates) {
    if (wanted.every((w) => !c.words.has(w))) continue
    if (first === undefined || value(c) > value(first) || (value(c) === value(first) && rarity(c) > rarity(first))) first = c
  }
  if (first === undefined) return undefined

  // Then sentences that add words the chosen ones lack: of the same passage, or of another whose
  // headings name one of the message's words (it is about that, not merely mentioning it).
  const chosen: Candidate[] = [first]
  const held = new Set(first.words)
  while (chosen.length < MAX_SENTENCES) {
    let best: { candidate: Candidate, gain: number } | undefined
    for (const c of candidates) {
      if (chosen.includes(c)) continue
      if (c.passage !== first.passage && !wanted.some((w) => c.heading.has(w))) continue
      const gain = wanted.filter((w) => !held.has(w) && c.words.has(w)).length
      if (gain > 0 && (best === undefined || gain > best.gain)) best = { candidate: c, gain }
    }
    if (best === undefined) break
    chosen.push(best.candidate)
    for (const w of best.candidate.words) held.add(w)
  }
  // The sentence after the best one often holds what it leads to ("Click Export card codes …" then
  // "Only active and unused cards can be exported."): quoted too while there is room.
  const next = candidates.find((c) => c.passage === first.passage && c.index === first.index + 1)
  if (next !== undefined && !chosen.includes(next) && chosen.length < MAX_SENTENCES && first.text.length + next.text.length <= NEXT_SENTENCE_ROOM) chosen.push(next)
  // One that opens with "It", "This" or "They" is about the sentence before it, which is quoted too.
  const previous = candidates.find((c) => c.passage === first.passage && c.index === first.index - 1)
  if (previous !== undefined && !chosen.includes(previous) && chosen.length < MAX_SENTENCES && /^(?:it|its|this|these|that|those|they|their|such)\b/i.test(first.text)) chosen.push(previous)
  const headings = new Set(chosen.flatMap((c) => [...c.heading]))
  const score = weightedCoverage(wanted, held, headings)
  // A passage the search ranks high may answer with fewer of the message's words ("Do orders to
  // Alaska take longer?" is answered by the one sentence about Alaska).
  const needed = first.passage.score >= CONFIDENT_SCORE ? MIN_COVERAGE_CONFIDENT : MIN_COVERAGE
  if (weightedCoverage(wanted, held, headings, holders) < needed) return undefined

  // Quoted in the order of the passages (best first) and, within one, of the text.
  const used = readable.filter((p) => chosen.some((c) => c.passage === p))
  // A pair's answer is short and written to be read whole: a sentence of it ("… with any of them")
  // can lose what it refers to, so it is quoted whole.
  // A sentence that opens a list ("… by their:") is quoted with the list that follows it.
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
  const quotes = used.map((p) => p.kind === 'faq'
    ? p.text
    : [...new Set(chosen.filter((c) => c.passage === p).flatMap(withList))].sort((a, b) => a.index - b.index).map((c) => c.text).join(' '))
  const citations = used.map(citationOfPassage)
  const lines = used.map((p, i) => `${citations[i]!.title}: "${quotes[i]}"${p.url === undefined ? '' : ` (${p.url})`}`)
  const text = used.length === 1
    ? `From the shop's help pages, ${lines[0]}`
    : ['From the shop\'s help pages:', ...lines.map((l) => `• ${l}`)].join('\n')
  return { kind: 'knowledge', text, citations, coverage: score }
}
