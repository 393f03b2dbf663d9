interface TrieNode {
  children: Map<string, TrieNode>
  term?: string
}

export interface FuzzyMatch {
  term: string
  distance: number
}

const codePoint = (ch: string) => ch.codePointAt(0)!

/**
 * Children stay in code-point order, the order in which a vocabulary read from FTS5 (sorted) adds
 * them: walks then list terms in the same order whether a term came at load or later.
 */
function insertChild (node: TrieNode, ch: string, child: TrieNode) {
  let last: string | undefined
  for (const key of node.children.keys()) last = key
  node.children.set(ch, child)
  if (last === undefined || codePoint(last) < codePoint(ch)) return
  const sorted = [...node.children].sort((a, b) => codePoint(a[0]) - codePoint(b[0]))
  node.children.clear()
  for (const [key, value] of sorted) node.children.set(key, value)
}

/**
 * The index vocabulary as a trie, searched with a bounded optimal-string-alignment distance
 * (Damerau: a swap of two neighbouring letters is one typo, as in Meilisearch). Walking the trie
 * shares the distance rows of common prefixes, so a lookup touches few nodes.
 */
export class Vocabulary {
  readonly #root: TrieNode = { children: new Map() }
  #size = 0
  #version = 0

  constructor (terms: Iterable<string> = []) {
    for (const term of terms) this.add(term)
  }

  get size () {
    return this.#size
  }

  /** Changes whenever a term is added or removed: what was derived from the terms is stale. */
  get version () {
    return this.#version
  }

  add (term: string) {
    let node = this.#root
    for (const ch of term) {
      let next = node.children.get(ch)
      if (next === undefined) {
        next = { children: new Map() }
        insertChild(node, ch, next)
      }
      node = next
    }
    if (node.term === undefined) {
      this.#size++
      this.#version++
    }
    node.term = term
  }

  /** Forgets a term (its trie nodes stay: an empty branch only costs a few steps of a walk). */
  remove (term: string) {
    const node = this.#find(term)
    if (node?.term === undefined) return
    delete node.term
    this.#size--
    this.#version++
  }

  has (term: string): boolean {
    return this.#find(term)?.term !== undefined
  }

  /** Terms that start with `prefix`, at most `limit` of them, shortest first. */
  withPrefix (prefix: string, limit: number): string[] {
    const start = this.#find(prefix)
    return start === undefined ? [] : this.#collect(start, limit)
  }

  /** Terms within `maxDistance` typos of `word` (the word itself included when present). */
  fuzzy (word: string, maxDistance: number): FuzzyMatch[] {
    const target = [...word]
    const firstRow = Array.from({ length: target.length + 1 }, (_, i) => i)
    const out: FuzzyMatch[] = []
    for (const [ch, child] of this.#root.children) {
      this.#walk(child, ch, undefined, target, firstRow, undefined, 0, maxDistance, out)
    }
    return out
  }

  /**
   * Terms that start with something within `maxDistance` typos of `prefix` (completing a word being
   * typed: "hedph" → "headphones"), at most `limit`, closest first.
   */
  fuzzyPrefix (prefix: string, maxDistance: number, limit: number): FuzzyMatch[] {
    const target = [...prefix]
    const firstRow = Array.from({ length: target.length + 1 }, (_, i) => i)
    const starts: Array<{ node: TrieNode, distance: number }> = []
    const visit = (node: TrieNode, ch: string, prevCh: string | undefined, prevRow: number[], prevPrevRow: number[] | undefined) => {
      const row = this.#nextRow(target, ch, prevCh, prevRow, prevPrevRow)
      const distance = row[target.length]!
      // The shortest stem that is close enough stands for its whole subtree.
      if (distance <= maxDistance) { starts.push({ node, distance }); return }
      if (Math.min(...row) > maxDistance) return
      for (const [nextCh, child] of node.children) visit(child, nextCh, ch, row, prevRow)
    }
    for (const [ch, child] of this.#root.children) visit(child, ch, undefined, firstRow, undefined)
    starts.sort((a, b) => a.distance - b.distance)
    const out: FuzzyMatch[] = []
    for (const { node, distance } of starts) {
      for (const term of this.#collect(node, limit - out.length)) out.push({ term, distance })
      if (out.length >= limit) break
    }
    return out
  }

  #nextRow (target: string[], ch: string, prevCh: string | undefined, prevRow: number[], prevPrevRow: number[] | undefined): number[] {
    const row = [prevRow[0]! + 1]
    for (let i = 1; i <= target.length; i++) {
      const cost = target[i - 1] === ch ? 0 : 1
      let value = Math.min(row[i - 1]! + 1, prevRow[i]! + 1, prevRow[i - 1]! + cost)
      if (prevPrevRow !== undefined && i > 1 && target[i - 1] === prevCh && target[i - 2] === ch) {
        value = Math.min(value, prevPrevRow[i - 2]! + 1)
      }
      row.push(value)
    }
    return row
  }

  #collect (start: TrieNode, limit: number): string[] {
    const out: string[] = []
    let level: TrieNode[] = [start]
    while (level.length > 0 && out.length < limit) {
      const next: TrieNode[] = []
      for (const node of level) {
        if (node.term !== undefined) out.push(node.term)
        if (out.length >= limit) break
        for (const child of node.children.values()) next.push(child)
      }
      level = next
    }
    return out
  }

  #find (prefix: string): TrieNode | undefined {
    let node: TrieNode | undefined = this.#root
    for (const ch of prefix) {
      node = node.children.get(ch)
      if (node === undefined) return undefined
    }
    return node
  }

  #walk (node: TrieNode, ch: string, prevCh: string | undefined, target: string[], prevRow: number[], prevPrevRow: number[] | undefined, prevBest: number, max: number, out: FuzzyMatch[]) {
    const row = this.#nextRow(target, ch, prevCh, prevRow, prevPrevRow)
    const best = Math.min(...row)
    const distance = row[target.length]!
    if (node.term !== undefined && distance <= max) out.push({ term: node.term, distance })
    // A deeper row is never below this row's minimum, nor the previous row's plus one (a swap).
    if (best > max && prevBest + 1 > max) return
    for (const [nextCh, child] of node.children) this.#walk(child, nextCh, ch, target, row, prevRow, best, max, out)
  }
}
