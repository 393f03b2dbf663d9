/**
 * The search rules as the rules page edits them: the whole list as JSON text, read back with a
 * message a person can act on for what the form can see (the JSON, the list, each rule's id, query
 * and match). The search service checks the rest (bounds, dates, pins), and its message is shown as is.
 */
import type { SearchRule } from './api/types.js'

/** The list as the editor shows it: one field per line, in the order the API answered. */
export function rulesText (rules: SearchRule[]): string {
  return JSON.stringify(rules, null, 2)
}

/** The rules of the editor's text, or what is wrong with it; an empty text is no rules. */
export function parseRules (text: string): { rules: SearchRule[] } | { error: string } {
  if (text.trim() === '') return { rules: [] }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    return { error: `Rules: this is not valid JSON (${(err as Error).message}).` }
  }
  if (!Array.isArray(value)) return { error: 'Rules: write a list, [ … ], of rules; an empty list [] removes them all.' }
  const ids = new Set<string>()
  for (const [i, rule] of value.entries()) {
    const name = `Rule ${i + 1}`
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
      return { error: `${name}: write an object, {"id": …, "query": …, "match": …}.` }
    }
    const { id, query, match } = rule as Record<string, unknown>
    if (typeof id !== 'string' || id === '') return { error: `${name}: "id" is required: letters, digits, - and _.` }
    if (ids.has(id)) return { error: `${name}: the id "${id}" is already used by an earlier rule.` }
    ids.add(id)
    if (typeof query !== 'string') return { error: `${name} (${id}): "query" is required: the words searches are compared with.` }
    if (match !== 'exact' && match !== 'contains') return { error: `${name} (${id}): "match" is "exact" or "contains".` }
  }
  return { rules: value as SearchRule[] }
}

export type RuleState = 'scheduled' | 'active' | 'ended'

/** Where `now` (epoch milliseconds) is in a rule's window: before it, in it, or after it. */
export function ruleState (rule: SearchRule, now: number): RuleState {
  if (rule.active_from !== undefined && rule.active_from !== null && now < Date.parse(rule.active_from)) return 'scheduled'
  if (rule.active_until !== undefined && rule.active_until !== null && now >= Date.parse(rule.active_until)) return 'ended'
  return 'active'
}
