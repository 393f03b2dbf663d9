import { compareCompletions, SEARCH_WEIGHT, type Completion } from '../../engine/phrases.js'
import type { Statement } from './database.js'
import { allowedTypos, foldQuery, foldText } from '../../text.js'
import { NO_RULES, type QueryRules } from '../../engine/query-terms.js'
import type { SuggestionRules } from '../../engine/settings.js'
import type { Vocabulary } from './typo.js'

type Prepare = (sql: string) => Statement

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

/** Spellings of a typed term tried at most (see typedVariants): each is three range reads, or a fuzzy walk. */
const MAX_VARIANTS = 8

/**
 * Completions of a partial term, the page [offset, offset + limit) of one list ordered by
 * compareCompletions: popular searches that are suggested (`searchRules`: enough searchers, keyword
 * hits, not excluded), catalog phrases and (for a single word) indexed terms that start with it;
 * when nothing does, the same for its last word corrected within Meilisearch's typo allowance. With
 * the catalog's stop words and synonyms (`rules`), the term is also read as typedVariants says, and
 * a stop word is never a completion.
 */
export function suggest (prepare: Prepare, vocabulary: Vocabulary, term: string, limit: number, offset: number, searchRules: SuggestionRules, rules: QueryRules = NO_RULES): string[] {
  const folded = foldQuery(term)
  if (folded === '' || limit === 0) return []
  const wanted = offset + limit
  const variants = typedVariants(folded, rules)
  // SUGGESTED's parameters, the same for every read below.
  const suggested = { min: searchRules.minSearchers, excluded: JSON.stringify(searchRules.excluded) }
  const complete = (prefix: string, typos: number) => completions(prepare, prefix, typos, wanted, rules.stopWords, suggested)
  let found = variants.flatMap((prefix) => complete(prefix, 0))
  if (found.length === 0) {
    found = variants.flatMap((prefix) => {
      const words = prefix.split(' ')
      const last = words.pop()!
      // The word being typed is a prefix: correct it as one ("hedph" → "headph…"), within the
      // typos its length allows.
      return vocabulary.fuzzyPrefix(last, allowedTypos(last), 5)
        .flatMap((m) => complete([...words, m.term].join(' '), m.distance))
    })
  }
  return ordered(found).slice(offset, offset + limit).map((c) => c.text)
}

/**
 * The ways a folded term is read for completions: as typed; without the stop words among its
 * complete words (all but the last, which is still being typed), as a search leaves them out; and
 * that with one synonym key of its words replaced by one of the key's alternatives (a key may be
 * its last word whole, as Meilisearch looks synonyms up for it too). The first MAX_VARIANTS: a
 * term with many synonyms does not multiply its reads. Words are those of the folded text, split at
 * spaces: "t-shirt" is one here, as completions start with it.
 */
export function typedVariants (folded: string, rules: QueryRules): string[] {
  if (rules === NO_RULES) return [folded]
  const typed = folded.split(' ')
  const words = typed.filter((word, i) => i === typed.length - 1 || !rules.stopWords.has(word))
  const variants = new Set([folded, words.join(' ')])
  for (let first = 0; first < words.length && variants.size < MAX_VARIANTS; first++) {
    for (let count = Math.min(rules.longestKey, words.length - first); count >= 1; count--) {
      const alternatives = rules.synonyms.get(words.slice(first, first + count).join(' '))
      for (const alternative of alternatives ?? []) {
        variants.add([...words.slice(0, first), ...alternative, ...words.slice(first + count)].join(' '))
      }
    }
  }
  return [...variants].slice(0, MAX_VARIANTS)
}

/** One completion per key (with the fewest typos it was found with), in suggestion order. */
function ordered (found: Completion[]): Completion[] {
  const byKey = new Map<string, Completion>()
  for (const c of found) {
    const seen = byKey.get(c.key)
    if (seen === undefined || c.typos < seen.typos) byKey.set(c.key, c)
  }
  return [...byKey.values()].sort(compareCompletions)
}

/**
 * A popular search (a row of `searches`) that autocomplete suggests: its keyword results exist, at
 * least @min distinct searchers made it, and it is not among @excluded (a JSON array of folded
 * searches). The only searches that count anywhere below, a catalog phrase's weight included.
 */
const SUGGESTED = 'hits > 0 AND searchers >= @min AND query NOT IN (SELECT value FROM json_each(@excluded))'

/**
 * The completions that start with a prefix (@from, below @to), in three parts with no key in common,
 * each with the whole weight of its keys (as on Meilisearch: the items carrying a phrase, plus
 * SEARCH_WEIGHT per search for it that is suggested; an indexed term that is neither a phrase nor
 * a suggested search weighs the items holding it), heaviest first, then by key.
 */
const PHRASES = `SELECT folded AS key, phrase AS text,
    weight + ${SEARCH_WEIGHT} * coalesce((SELECT count FROM searches WHERE query = folded AND ${SUGGESTED}), 0) AS weight
  FROM suggestions WHERE folded >= @from AND folded < @to ORDER BY 3 DESC, 1 LIMIT @wanted`
const SEARCHES = `SELECT query AS key, query AS text, ${SEARCH_WEIGHT} * count AS weight FROM searches
  WHERE query >= @from AND query < @to AND ${SUGGESTED} AND NOT EXISTS (SELECT 1 FROM suggestions WHERE folded = query)
  ORDER BY 3 DESC, 1 LIMIT @wanted`
/**
 * SEARCHES for a prefix that many searches begin with: through searches_top, most searched first,
 * stopping at @wanted, where the query's range would read and sort every one of them. A prefix few
 * begin with keeps the range: walking searches_top for it would read most of the index.
 */
const MANY_SEARCHES = `SELECT query AS key, query AS text, ${SEARCH_WEIGHT} * count AS weight FROM searches INDEXED BY searches_top
  WHERE query >= @from AND query < @to AND ${SUGGESTED} AND NOT EXISTS (SELECT 1 FROM suggestions WHERE folded = query)
  ORDER BY count DESC, query LIMIT @wanted`
/** How many searches begin with the prefix, counted up to MANY (a bounded range of the query's index). */
const BEGUN = 'SELECT count(*) FROM (SELECT 1 FROM searches WHERE query >= @from AND query < @to LIMIT @many)'
const MANY = 2000
const TERMS = `SELECT term AS key, term AS text, doc AS weight FROM fts_vocab
  WHERE term >= @from AND term < @to AND NOT EXISTS (SELECT 1 FROM suggestions WHERE folded = term)
    AND NOT EXISTS (SELECT 1 FROM searches WHERE query = term AND ${SUGGESTED})
  ORDER BY 3 DESC, 1 LIMIT @wanted`

/**
 * The first `wanted` completions that start with `prefix`, whatever number is wanted: a part's own
 * first `wanted` are all it can bring to the first `wanted` overall (three top-n sorts rather than
 * grouping every match, which cost twice as much on one- and two-letter prefixes). A stop word is
 * no completion (a search would leave it out): each part reads as many more as there are stop words
 * starting with the prefix, which are then dropped.
 */
function completions (prepare: Prepare, prefix: string, typos: number, wanted: number, stopWords: ReadonlySet<string>, suggested: { min: number, excluded: string }): Completion[] {
  const skipped = stopWords.size === 0 ? [] : [...stopWords].filter((word) => word.startsWith(prefix))
  const params = { from: prefix, to: prefix + '\uffff', wanted: wanted + skipped.length, ...suggested }
  const searches = prepare(BEGUN).pluck().get({ ...params, many: MANY }) as number < MANY ? SEARCHES : MANY_SEARCHES
  // Indexed terms are single words.
  const rows = (prefix.includes(' ') ? [PHRASES, searches] : [PHRASES, searches, TERMS])
    .flatMap((sql) => prepare(sql).all(params) as Array<Omit<Completion, 'typos'>>)
  return (skipped.length === 0 ? rows : rows.filter((row) => !skipped.includes(row.key)))
    .map((row) => ({ ...row, typos }))
    .sort(compareCompletions)
    .slice(0, wanted)
}
