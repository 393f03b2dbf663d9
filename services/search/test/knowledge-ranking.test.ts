import t from 'tap'
import { keywordScore, planKnowledgeQuery, rankCandidates, wordWeights } from '../src/engines/embedded/knowledge-ranking.js'
import { Vocabulary } from '../src/engines/embedded/typo.js'

// The embedded engine's ranking of knowledge chunks (knowledge-ranking.ts), rule by rule.

const vocabulary = new Vocabulary(['shipping', 'delivery', 'takes', 'days', 'how', 'long', 'does', 'warranty', 'c'])

t.test('the query plan: any word may match, typos by length, the last word also as a prefix, every term quoted', async (t) => {
  t.equal(planKnowledgeQuery('🎧 ?!', vocabulary), undefined, 'no word: nothing to search')
  const plan = planKnowledgeQuery('how long does delivry tak', vocabulary)!
  t.same(plan.words.map((w) => w.word), ['how', 'long', 'does', 'delivry', 'tak'])
  t.same([...plan.words[3]!.variants], [['delivry', 0], ['delivery', 1]], 'a 7-letter word forgives one typo')
  t.same([...plan.words[0]!.variants], [['how', 0]], 'short words none')
  t.equal(plan.match, '"how" OR "long" OR "does" OR "delivry" OR "delivery" OR "tak" *')
  t.equal(planKnowledgeQuery('c++ "NOT" (a OR b*', vocabulary)!.match, '"c" OR "not" OR "a" OR "or" OR "b"', 'operators and quotes are only words; a one-letter last word is no prefix')
  t.equal(planKnowledgeQuery('a a a', vocabulary)!.words.length, 1, 'a repeated word counts once')
})

t.test('keyword score: the share of the informative words a chunk holds', async (t) => {
  const plan = planKnowledgeQuery('how long does delivry tak', vocabulary)!
  const counts: Record<string, number> = { how: 90, long: 90, does: 90, delivery: 5, takes: 20 }
  const weights = wordWeights(plan, (term) => counts[term] ?? 0, 100, (prefix) => vocabulary.withPrefix(prefix, 20))
  t.ok(weights[3]! > weights[4]! && weights[4]! > weights[0]!, `rarer words weigh more: ${weights.map((w) => w.toFixed(2)).join(', ')}`)
  t.equal(wordWeights(planKnowledgeQuery('zeppelin', vocabulary)!, () => 0, 100, () => [])[0], 0, 'a word no chunk holds tells nothing')
  const full = keywordScore(plan, weights, 'Delivery: how long does it take? Standard delivery takes 3 days; it does not take long.')
  t.ok(full > 0.9 && full <= 1, `every word (delivery with one typo, "tak" as a prefix): ${full}`)
  const some = keywordScore(plan, weights, 'Delivery is free.')
  const little = keywordScore(plan, weights, 'How long does the battery last?')
  t.ok(some > little, `the rare word matters more than three common ones: ${some} > ${little}`)
  t.equal(keywordScore(plan, weights, 'Nothing relevant here.'), 0)
})

t.test('ranking: the mix of keyword and semantic scores, best first, within [0, 1]', async (t) => {
  const candidates = [
    { rowid: 1, bm25Rank: 0, keyword: 1, semantic: 0.2 },
    { rowid: 2, bm25Rank: Infinity, keyword: 0, semantic: 0.9 },
    { rowid: 3, bm25Rank: 1, keyword: 0.5, semantic: -0.4 },
    { rowid: 4, bm25Rank: Infinity, keyword: 0, semantic: -0.1 }
  ]
  t.same(rankCandidates(candidates, 0, 10), [{ rowid: 1, score: 1 }, { rowid: 3, score: 0.5 }], 'keyword only: chunks without a keyword match are dropped')
  t.same(rankCandidates(candidates, 1, 10), [{ rowid: 2, score: 0.9 }, { rowid: 1, score: 0.2 }], 'semantic only: negative similarity counts as 0, and is dropped')
  t.same(rankCandidates(candidates, 0.5, 10), [{ rowid: 1, score: 0.6 }, { rowid: 2, score: 0.45 }, { rowid: 3, score: 0.25 }])
  t.same(rankCandidates(candidates, 0.5, 1), [{ rowid: 1, score: 0.6 }], 'limit')
  t.same(rankCandidates([{ rowid: 9, bm25Rank: 5, keyword: 0.5, semantic: 0 }, { rowid: 8, bm25Rank: 2, keyword: 0.5, semantic: 0 }], 0, 10).map((r) => r.rowid), [8, 9], 'ties keep the bm25 order')
  t.same(rankCandidates([{ rowid: 1, bm25Rank: 0, keyword: 1, semantic: 1.0000002 }], 0.5, 1), [{ rowid: 1, score: 1 }], 'float noise stays within 1')
})
