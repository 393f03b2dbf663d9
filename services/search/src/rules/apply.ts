import { limits, type SearchRule } from '@chatsearch/contracts'
import type { Document, EngineIndex, SearchQuery, SearchResult } from '../engine/port.js'

/** An item wanted at a position of the whole result list (1-based). */
export interface Pin { id: string, position: number }

/** What the rules that apply to a search ask: items never shown, and items wanted at a position in precedence order. */
export interface RuleEffect {
  hidden: Set<string>
  pins: Pin[]
}

/**
 * The effect of the rules that apply to a search (see match.ts), undefined when they ask nothing. A
 * hidden item is never pinned, by any rule; an item pinned by several rules keeps the first pin (the
 * rules' order, then the pins' order in a rule).
 */
export function ruleEffect (rules: readonly SearchRule[]): RuleEffect | undefined {
  const hidden = new Set(rules.flatMap((rule) => rule.hide ?? []))
  const pinned = new Set<string>()
  const pins: Pin[] = []
  for (const rule of rules) {
    for (const { item_id: id, position } of rule.pin ?? []) {
      if (hidden.has(id) || pinned.has(id)) continue
      pinned.add(id)
      pins.push({ id, position })
    }
  }
  return hidden.size === 0 && pins.length === 0 ? undefined : { hidden, pins }
}

/**
 * Each pin at its position or, when an earlier pin took that position, at the next free one after
 * it; ordered by position. Free positions are found through a map from each taken position to one
 * at or after the next free one (with path compression), so that many pins of one position cost no
 * more than a few steps each.
 */
export function placePins (pins: readonly Pin[]): Pin[] {
  const next = new Map<number, number>()
  const free = (position: number): number => {
    let found = position
    while (next.has(found)) found = next.get(found)!
    for (let at = position; at !== found;) {
      const after = next.get(at)!
      next.set(at, found)
      at = after
    }
    return found
  }
  const placed = pins.map(({ id, position }) => {
    const at = free(position)
    next.set(at, at + 1)
    return { id, position: at }
  })
  return placed.sort((a, b) => a.position - b.position)
}

/**
 * A search with the rules' effect, for the page `query` asks (its offset and limit count positions of
 * the whole list, pins included). Pinned items are read first, with the search's filter: one that
 * does not exist or that the filter excludes is left out, and its position is not taken. The engine
 * is then asked for its hits from the first, enough of them to fill the page once the hidden and
 * pinned items are taken out (pinned items show at their position, never twice), but never more
 * than limits.searchWindowMax. The list is those hits with each pinned item at its position; when the
 * hits run out before a pinned position, the remaining pinned items follow the last hit.
 *
 * `estimatedTotalHits` counts the pinned items and leaves out the hidden and pinned items among the
 * hits read: exact when the engine had no more hits, otherwise an estimate (a hidden item ranked
 * beyond them is still counted). The facet distribution is the engine's, for the search without the
 * rules. A pinned item's ranking score is the one it had among the hits read, 0 otherwise.
 */
export async function searchWithRules (index: EngineIndex, query: SearchQuery, effect: RuleEffect): Promise<SearchResult> {
  const found = effect.pins.length === 0 ? [] : await index.getMany(effect.pins.map((pin) => pin.id), query.filter)
  const pinned = new Map(found.map((document) => [String(document.id), document]))
  const placed = placePins(effect.pins.filter((pin) => pinned.has(pin.id)))
  const excluded = new Set([...effect.hidden, ...pinned.keys()])
  const end = query.offset + query.limit
  const pinsUpToEnd = placed.filter((pin) => pin.position <= end).length
  const limit = Math.min(end - pinsUpToEnd + excluded.size, limits.searchWindowMax)
  const result = await index.search({ ...query, offset: 0, limit })
  const organic = result.hits.filter((hit) => !excluded.has(hit.id))
  const exhausted = result.hits.length < limit

  const list: Document[] = []
  let o = 0
  let p = 0
  while (list.length < end) {
    const pin = placed[p]
    if (pin !== undefined && (pin.position === list.length + 1 || (o === organic.length && exhausted))) {
      list.push(pinned.get(pin.id)!)
      p++
    } else if (o < organic.length) {
      list.push(organic[o++]!)
    } else {
      break
    }
  }

  const hits = list.slice(query.offset)
  const organicTotal = exhausted ? organic.length : Math.max(result.estimatedTotalHits - (result.hits.length - organic.length), organic.length)
  const answer: SearchResult = { hits, estimatedTotalHits: organicTotal + placed.length }
  if (result.scores !== undefined) {
    const scores = new Map(result.hits.map((hit, i) => [hit.id, result.scores![i]!]))
    answer.scores = hits.map((hit) => scores.get(hit.id) ?? 0)
  }
  if (result.facetDistribution !== undefined) answer.facetDistribution = result.facetDistribution
  // What the engine's keyword search matched, the rules aside: autocomplete's popular searches count it.
  const keywordHits = result.keywordHits ?? (query.hybrid === undefined ? result.estimatedTotalHits : undefined)
  if (keywordHits !== undefined) answer.keywordHits = keywordHits
  return answer
}
