import type { KnowledgePassage, RetrievedItem } from './types.js'
import { sentencesOf } from './sentences.js'
import { coverage, stems } from './words.js'
import { relevanceOf, THRESHOLD, WEIGHTS } from './relevance-weights.js'

/**
 * One relevance scale for everything a turn retrieves (decision 17): each catalog item, help-page
 * passage and FAQ pair gets the chance that it answers the message, from a few features a person can
 * read in the team's transcript, weighed by the logistic models of relevance-weights.ts.
 */
export interface ItemFeatures {
  /** Cosine similarity of the message and the item (semantic search). */
  semantic: number
  /** The keyword search's score: 1 for every planned keyword matched, less per typo, 0 when not found. */
  keyword: number
  /** The share of the message's content words the item's text holds. */
  coverage: number
  /** 1 when the item's title or category holds the word the shopper's request ends on (the kind of thing asked for). */
  head: number
}

export interface PassageFeatures {
  /** The knowledge search's score (its keyword and semantic mix). */
  score: number
  /** Cosine similarity of the message and the passage (its section and text), 0 without an embedder. */
  semantic: number
  /** How far its similarity stands above the mean of the passages retrieved with it (0 when not above). */
  standout: number
  /** The share of the other retrieved passages that come from the same page: the search agrees on the page. */
  agreement: number
  /** The share of the message's content words the passage holds, its headings at half weight, the words few passages hold weighing double. */
  coverage: number
  /** The share of them (weighted alike) the passage's best sentence holds. */
  sentence: number
  /** Cosine similarity of the message and the passage's headings (page title and section), 0 without an embedder. */
  heading: number
  /** The highest cosine similarity of the message and one of the passage's sentences, 0 without an embedder. */
  closest: number
}

export interface FaqFeatures {
  score: number
  /** Cosine similarity of the message and the pair's question, 0 without an embedder. */
  semantic: number
  coverage: number
  /** How much the pair's question and the message share, both ways (the smaller share). */
  question: number
}

export interface ItemEvidence { kind: 'item', item: RetrievedItem, features: ItemFeatures, relevance: number }
export interface PassageEvidence { kind: 'passage' | 'faq', passage: KnowledgePassage, features: PassageFeatures | FaqFeatures, relevance: number }

/** Whether a piece of evidence clears the one threshold of the scale. */
export const clears = (e: { relevance: number }) => e.relevance >= THRESHOLD

const itemText = (item: RetrievedItem) => [item.title, item.brand, item.category, item.description, ...(item.tags ?? [])].filter((t) => t !== undefined).join(' ')

/**
 * The items weighed against the words of the request (`wanted`: the planned keywords' stems, or the
 * message's when none were planned), best first.
 */
export function weighItems (items: RetrievedItem[], wanted: string[]): ItemEvidence[] {
  const head = wanted[wanted.length - 1]
  return items.map((item): ItemEvidence => {
    const words = new Set(stems(itemText(item)))
    const named = new Set(stems(`${item.title} ${item.category ?? ''}`))
    const features: ItemFeatures = {
      semantic: item.semantic,
      keyword: item.keyword,
      coverage: coverage(wanted, words),
      head: head !== undefined && named.has(head) ? 1 : 0
    }
    return { kind: 'item', item, features, relevance: relevanceOf(WEIGHTS.item, features) }
  }).sort((a, b) => b.relevance - a.relevance || a.item.rank - b.item.rank)
}

/** A heading's words count for half a sentence's: "Returns" says what a page is about, not what it says. */
const HEADING_WEIGHT = 0.5

/** A word of the message that one retrieved passage holds, or none, weighs this many of the others: it is what the message is about. */
const SPECIFIC_WEIGHT = 2

/**
 * The share of the message's words a text holds, its headings' at half weight, each word weighted by
 * how specific it is among the retrieved passages ("Do orders to Alaska take longer?" is about Alaska).
 */
function weightedShare (wanted: string[], weight: (w: string) => number, text: Set<string>, heading: Set<string> = new Set()): number {
  let held = 0
  let total = 0
  for (const w of wanted) {
    held += weight(w) * (text.has(w) ? 1 : heading.has(w) ? HEADING_WEIGHT : 0)
    total += weight(w)
  }
  return total === 0 ? 0 : held / total
}

/** The passages (pages' chunks and FAQ pairs) weighed against the message's content words, best first. */
export function weighPassages (passages: KnowledgePassage[], wanted: string[], semantic: number[] = [], headings: number[] = [], closest: number[] = []): PassageEvidence[] {
  const holders = new Map<string, number>()
  for (const p of passages) {
    const words = new Set(stems(`${p.title} ${p.section} ${p.text}`))
    for (const w of wanted) if (words.has(w)) holders.set(w, (holders.get(w) ?? 0) + 1)
  }
  const weight = (w: string) => (holders.get(w) ?? 0) <= 1 ? SPECIFIC_WEIGHT : 1
  const meanSimilarity = passages.length === 0 ? 0 : passages.reduce((sum, _, i) => sum + Math.max(0, semantic[i] ?? 0), 0) / passages.length
  const pages = new Map<string, number>()
  for (const p of passages) if (p.kind !== 'faq') pages.set(p.documentId, (pages.get(p.documentId) ?? 0) + 1)
  const weighed = passages.map((passage, i): PassageEvidence => {
    const similarity = Math.max(0, semantic[i] ?? 0)
    if (passage.kind === 'faq') {
      const question = stems(passage.title)
      const shared = question.filter((w) => wanted.includes(w)).length
      const features: FaqFeatures = {
        score: passage.score,
        semantic: similarity,
        coverage: weightedShare(wanted, weight, new Set(stems(`${passage.title} ${passage.text}`))),
        question: wanted.length === 0 || question.length === 0 ? 0 : Math.min(shared / wanted.length, shared / question.length)
      }
      return { kind: 'faq', passage, features, relevance: relevanceOf(WEIGHTS.faq, features) }
    }
    const text = new Set(stems(passage.text))
    const heading = new Set(stems(`${passage.title} ${passage.section}`))
    const coverage = weightedShare(wanted, weight, text, heading)
    const sentence = Math.max(0, ...sentencesOf(passage.text).map((s) => weightedShare(wanted, weight, new Set(stems(s)))))
    const features: PassageFeatures = {
      score: passage.score,
      semantic: similarity,
      standout: Math.max(0, similarity - meanSimilarity),
      agreement: passages.length <= 1 ? 0 : ((pages.get(passage.documentId) ?? 1) - 1) / (passages.length - 1),
      coverage,
      sentence,
      heading: Math.max(0, headings[i] ?? 0),
      closest: Math.max(0, closest[i] ?? 0)
    }
    return { kind: 'passage', passage, features, relevance: relevanceOf(WEIGHTS.passage, features) }
  })
  return weighed.sort((a, b) => b.relevance - a.relevance || b.passage.score - a.passage.score)
}

/** The text of a passage its similarity with a message is measured on: a pair's question, a page chunk's section and opening. */
export const PASSAGE_TEXT_CHARS = 600
export const meaningOf = (p: KnowledgePassage) => p.kind === 'faq' ? p.title : `${p.section} ${p.text}`.slice(0, PASSAGE_TEXT_CHARS)
/** The headings a passage's `heading` similarity is measured on: its page's title and its section path. */
export const headingsOf = (p: KnowledgePassage) => p.section.startsWith(p.title) ? p.section : `${p.title} ${p.section}`.trim()
