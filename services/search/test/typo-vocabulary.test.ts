// The vocabulary's typo lookup walks a trie with one distance row per depth; whatever it prunes, it
// must find exactly the terms a brute-force optimal-string-alignment distance finds, with a typo on
// the first letter counted as two (Meilisearch's rule).
import t from 'tap'
import { mulberry32, productsOf } from '../catalog/generate.js'
import { Vocabulary } from '../src/engines/embedded/typo.js'
import { tokenize } from '../src/text.js'

/** Optimal string alignment distance (a swap of two neighbouring letters is one edit), by code point. */
function osa (a: string[], b: string[]): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}

/** The typos a term costs: its distance, or 2 when it starts with another letter and is one edit away. */
function typos (word: string[], term: string[]): number {
  const distance = osa(word, term)
  if (word[0] === term[0]) return distance
  return distance <= 1 ? 2 : Infinity
}

t.test('fuzzy finds exactly the terms within the distance', async (t) => {
  const terms = [...new Set([...productsOf(400, 8)].flatMap((p) => tokenize(`${p.title} ${p.brand} ${p.category}`)))]
  terms.push('naïve', '日本語', 'ab', 'ba', 'abc')
  const vocabulary = new Vocabulary(terms)
  const random = mulberry32(4)
  const letters = 'abcdefghijklmnopqrstuvwxyzé'
  const words = ['ab', 'ba', 'acb', 'naive', '日本', 'x']
  for (let i = 0; i < 300; i++) {
    const chars = [...terms[Math.floor(random() * terms.length)]!]
    for (let edits = Math.floor(random() * 3); edits > 0; edits--) {
      const at = Math.floor(random() * chars.length)
      const letter = letters[Math.floor(random() * letters.length)]!
      const kind = Math.floor(random() * 4)
      if (kind === 0) chars.splice(at, 1)
      else if (kind === 1) chars.splice(at, 0, letter)
      else if (kind === 2) chars[at] = letter
      else if (at + 1 < chars.length) [chars[at], chars[at + 1]] = [chars[at + 1]!, chars[at]!]
    }
    words.push(chars.join(''))
  }
  let found = 0
  for (const word of words) {
    for (const max of [1, 2]) {
      const got = vocabulary.fuzzy(word, max).map((m) => `${m.term}:${m.distance}`).sort()
      const wanted = terms.flatMap((term) => {
        const distance = typos([...word], [...term])
        return distance <= max ? [`${term}:${distance}`] : []
      }).sort()
      if (JSON.stringify(got) !== JSON.stringify(wanted)) t.fail(`${word} within ${max}`, { got, wanted })
      found += got.length
    }
  }
  t.ok(found > words.length, `${found} matches over ${words.length} words, each checked against brute force`)
})

t.test('a typo on the first letter counts as two', async (t) => {
  const vocabulary = new Vocabulary(['watch', 'batch', 'hiking', 'waterproof', 'weatherproof', 'raterprof'])
  t.same(vocabulary.fuzzy('watch', 1), [{ term: 'watch', distance: 0 }], '"batch" is not one typo from "watch"')
  t.same(vocabulary.fuzzy('ihking', 1), [], 'nor is a swap of the first two letters')
  t.same(vocabulary.fuzzy('waterprof', 2).sort((a, b) => a.term.localeCompare(b.term)), [
    { term: 'raterprof', distance: 2 },
    { term: 'waterproof', distance: 1 }
  ], 'with two typos allowed, a term one edit away that starts with another letter costs two')
})

t.test('removing terms frees their nodes: words that come and go do not grow the trie', async (t) => {
  const kept = ['headphones', 'headset', 'hiking', '日本語']
  const vocabulary = new Vocabulary(kept)
  const base = vocabulary.nodes
  t.equal(base, new Set(kept.flatMap((term) => Array.from({ length: [...term].length }, (_, i) => [...term].slice(0, i + 1).join('')))).size, 'one node per distinct prefix')
  for (let round = 0; round < 50; round++) {
    const passing = Array.from({ length: 20 }, (_, i) => `head${round}x${i}`).concat(`hik${round}`, `naïve${round}`)
    for (const term of passing) vocabulary.add(term)
    if (round === 0) t.ok(vocabulary.nodes > base + 20, `22 added terms add ${vocabulary.nodes - base} nodes`)
    for (const term of passing) vocabulary.remove(term)
  }
  t.equal(vocabulary.nodes, base, 'back to the nodes of the kept terms after 50 rounds of 22 words added and removed')
  t.equal(vocabulary.size, kept.length)
  vocabulary.remove('head')
  t.equal(vocabulary.nodes, base, 'removing a prefix that is not a term changes nothing')
  vocabulary.remove('headset')
  t.equal(vocabulary.nodes, base - 3, 'a removed term drops the nodes only it used: "s", "e", "t" after the shared "head"')
  t.same(vocabulary.withPrefix('head', 10), ['headphones'])
  t.same(vocabulary.fuzzy('hedphones', 1), [{ term: 'headphones', distance: 1 }], 'what remains is still found, typos included')
  vocabulary.add('headset')
  t.same(vocabulary.withPrefix('head', 10), ['headset', 'headphones'], 'a term added again is found again')
})

t.test('past its node budget a vocabulary stops growing and leaves exact matches to its lookup, so random words cannot exhaust memory', async (t) => {
  const frequent = ['headphones', 'hiking', 'waterproof']
  const rare = Array.from({ length: 200 }, (_, i) => `zq${i.toString(36)}x${(i * 7919).toString(36)}`)
  const stored = new Set([...frequent, ...rare])
  const budget = 60
  let lookups = 0
  const vocabulary = new Vocabulary([...frequent, ...rare], budget, (term) => { lookups++; return stored.has(term) })
  t.ok(vocabulary.nodes <= budget, `${vocabulary.nodes} trie nodes within the budget of ${budget}`)
  t.ok(vocabulary.full, 'a term was refused')
  t.ok(vocabulary.size < 20, `${vocabulary.size} terms in the trie: the reading stopped at the first that did not fit`)
  t.ok([...stored].every((term) => vocabulary.has(term)), 'every stored term is known exactly, through the lookup past the trie')
  t.notOk(vocabulary.has('zqnotstored'), 'and what is not stored is not')
  t.ok(lookups > 150, 'the lookup answered for the terms outside the trie')
  t.same(vocabulary.fuzzy('hedphones', 1), [{ term: 'headphones', distance: 1 }], 'the terms given first keep their typos')
  const last = rare.at(-1)!
  t.same(vocabulary.fuzzy(last.slice(0, -1) + 'q', 1), [], 'a term outside the trie is not reached by a typo')
  t.equal(vocabulary.add('zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'), false, 'a later term that does not fit is refused too')
  const version = vocabulary.version
  vocabulary.remove(last)
  t.ok(vocabulary.version > version, 'removing a term outside the trie is a change: the lookup may have known it')
  const unbounded = new Vocabulary([...frequent, ...rare], undefined, () => { throw new Error('not asked') })
  t.notOk(unbounded.full, 'the default budget holds these easily')
  t.notOk(unbounded.has('zqnotstored'), 'and a vocabulary that is not full never asks its lookup')
})
