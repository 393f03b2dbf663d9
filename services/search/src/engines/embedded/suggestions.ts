import type { Statement } from './database.js'

type Prepare = (sql: string) => Statement
import { foldText } from './tokenize.js'
import type { Vocabulary } from './typo.js'
import { allowedTypos } from './tokenize.js'

/**
 * How many items carry each phrase, counted in memory over a whole write (a batch of thousands of
 * items shares a few hundred brands and categories) and written once at its end.
 */
export class PhraseTally {
  readonly #counts = new Map<string, { phrase: string, delta: number }>()

  /** Counts a document's phrases in (+1) or out (-1). */
  add (phrases: string[], delta: 1 | -1) {
    for (const phrase of phrases) {
      const folded = foldText(phrase)
      const entry = this.#counts.get(folded)
      if (entry === undefined) this.#counts.set(folded, { phrase, delta })
      else entry.delta += delta
    }
  }

  write (prepare: Prepare) {
    const upsert = prepare(`INSERT INTO suggestions (folded, phrase, weight) VALUES (?, ?, ?)
      ON CONFLICT (folded) DO UPDATE SET weight = weight + excluded.weight`)
    const dropUnused = prepare('DELETE FROM suggestions WHERE folded = ? AND weight <= 0')
    for (const [folded, { phrase, delta }] of this.#counts) {
      if (delta === 0) continue
      upsert.run(folded, phrase, delta)
      if (delta < 0) dropUnused.run(folded)
    }
    this.#counts.clear()
  }
}

interface Candidate { text: string, score: number }

/**
 * Completions of a partial term: popular searches (weighted up: people asked for them), catalog
 * phrases and frequent single terms that start with it; when nothing starts with it, the same for
 * its last word corrected within Meilisearch's typo allowance. Most popular first.
 */
export function suggest (prepare: Prepare, vocabulary: Vocabulary, term: string, limit: number, offset: number): string[] {
  const folded = foldText(term).replace(/\s+/g, ' ').trim()
  if (folded === '') return []
  const wanted = offset + limit
  let found = candidates(prepare, vocabulary, [folded], wanted)
  if (found.size === 0) {
    const words = folded.split(' ')
    const last = words.pop()!
    // The word being typed is a prefix: correct it as one ("hedph" → "headph…"), within the
    // typos its length allows.
    const corrected = vocabulary.fuzzyPrefix(last, allowedTypos(last), 5)
      .map((m) => [...words, m.term].join(' '))
    found = candidates(prepare, vocabulary, corrected, wanted)
  }
  return [...found.values()].sort((a, b) => b.score - a.score || a.text.localeCompare(b.text))
    .slice(offset, offset + limit).map((c) => c.text)
}

function candidates (prepare: Prepare, vocabulary: Vocabulary, prefixes: string[], wanted: number): Map<string, Candidate> {
  const out = new Map<string, Candidate>()
  const add = (text: string, score: number) => {
    const key = foldText(text)
    const seen = out.get(key)
    if (seen === undefined || seen.score < score) out.set(key, { text, score: (seen?.score ?? 0) + score })
  }
  const range = (p: string) => [p, p + '\uffff']
  for (const prefix of prefixes) {
    const popular = prepare('SELECT query, count FROM queries WHERE query >= ? AND query < ? AND hits > 0 ORDER BY count DESC LIMIT ?')
      .all(...range(prefix), wanted) as Array<{ query: string, count: number }>
    for (const r of popular) add(r.query, r.count * 5)
    const phrases = prepare('SELECT phrase, weight FROM suggestions WHERE folded >= ? AND folded < ? ORDER BY weight DESC LIMIT ?')
      .all(...range(prefix), wanted) as Array<{ phrase: string, weight: number }>
    for (const r of phrases) add(r.phrase, r.weight)
    if (!prefix.includes(' ')) {
      const terms = prepare('SELECT term, doc FROM fts_vocab WHERE term >= ? AND term < ? ORDER BY doc DESC LIMIT ?')
        .all(...range(prefix), wanted) as Array<{ term: string, doc: number }>
      for (const r of terms) if (vocabulary.has(r.term)) add(r.term, r.doc)
    }
  }
  return out
}
