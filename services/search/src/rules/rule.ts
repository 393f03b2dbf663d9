import type { SearchRule } from '@chatsearch/contracts'

const instant = (text: string | null | undefined): number | undefined => text === undefined || text === null ? undefined : Date.parse(text)

/** What is wrong with one rule that its schema cannot tell, or undefined. */
function ruleProblem (rule: SearchRule): string | undefined {
  const from = instant(rule.active_from)
  const until = instant(rule.active_until)
  // The schema's date-time format is a regular expression; what an instant is, Date decides.
  if (Number.isNaN(from)) return `active_from ${JSON.stringify(rule.active_from)} is not an instant this server can read`
  if (Number.isNaN(until)) return `active_until ${JSON.stringify(rule.active_until)} is not an instant this server can read`
  if (from !== undefined && until !== undefined && until <= from) return 'active_until must come after active_from'
  const pinned = new Set<string>()
  const positions = new Set<number>()
  for (const { item_id: item, position } of rule.pin ?? []) {
    if (pinned.has(item)) return `item ${item} is pinned twice`
    if (positions.has(position)) return `two items are pinned at position ${position}`
    pinned.add(item)
    positions.add(position)
  }
  const both = (rule.hide ?? []).find((item) => pinned.has(item))
  if (both !== undefined) return `item ${both} is both pinned and hidden`
  return undefined
}

/**
 * What PUT /rules refuses beyond its schema (400 invalid_request), naming the rule: an id used twice,
 * an empty or unreadable active window, an item or a position pinned twice in one rule, an item
 * pinned and hidden by one rule. Across rules, a pin and a hide of one item, or two pins of one
 * position, are allowed: which rules apply depends on the search (see apply.ts).
 */
export function rulesProblem (rules: readonly SearchRule[]): string | undefined {
  const ids = new Set<string>()
  for (const [i, rule] of rules.entries()) {
    const name = `rule ${i + 1} (${rule.id})`
    if (ids.has(rule.id)) return `${name}: the id ${rule.id} is used by an earlier rule; each rule needs its own`
    ids.add(rule.id)
    const problem = ruleProblem(rule)
    if (problem !== undefined) return `${name}: ${problem}`
  }
  return undefined
}

/**
 * A rule as stored and answered (after rulesProblem found nothing): its fields in one order, `pin`
 * and `hide` present, its instants in ISO 8601 UTC and left out when unbounded.
 */
export function storedRule (rule: SearchRule): SearchRule {
  const from = instant(rule.active_from)
  const until = instant(rule.active_until)
  return {
    id: rule.id,
    query: rule.query,
    match: rule.match,
    pin: (rule.pin ?? []).map(({ item_id: item, position }) => ({ item_id: item, position })),
    hide: [...rule.hide ?? []],
    ...(from === undefined ? {} : { active_from: new Date(from).toISOString() }),
    ...(until === undefined ? {} : { active_until: new Date(until).toISOString() })
  }
}
