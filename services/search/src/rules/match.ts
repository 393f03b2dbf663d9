import type { SearchRule } from '@chatsearch/contracts'
import { tokenize } from '../text.js'

/** A stored rule as searches compare with it, prepared once per read (see store.ts). */
export interface CompiledRule {
  rule: SearchRule
  /** The rule's query as its words, folded as the engines fold a query (text.ts). */
  words: string[]
  /** Its active window in epoch milliseconds: from included, until excluded. */
  from: number
  until: number
}

export function compileRule (rule: SearchRule): CompiledRule {
  return {
    rule,
    words: tokenize(rule.query),
    from: rule.active_from === undefined || rule.active_from === null ? -Infinity : Date.parse(rule.active_from),
    until: rule.active_until === undefined || rule.active_until === null ? Infinity : Date.parse(rule.active_until)
  }
}

/** Whether `run` appears in `words` as consecutive words, in order (an empty run appears everywhere). */
function holdsRun (words: readonly string[], run: readonly string[]): boolean {
  for (let start = 0; start + run.length <= words.length; start++) {
    if (run.every((word, i) => words[start + i] === word)) return true
  }
  return false
}

function matches (rule: CompiledRule, words: readonly string[]): boolean {
  if (rule.rule.match === 'contains') return holdsRun(words, rule.words)
  return rule.words.length === words.length && holdsRun(words, rule.words)
}

/**
 * The rules that apply to a search for `query` (the processed search_term) at `now`, in precedence
 * order. Both sides are read as their words: case, accents and punctuation do not count, every word
 * does (stop words and words after the tenth too; synonyms are not followed).
 */
export function applicableRules (rules: readonly CompiledRule[], query: string, now: number): SearchRule[] {
  if (rules.length === 0) return []
  const words = tokenize(query)
  return rules.filter((r) => r.from <= now && now < r.until && matches(r, words)).map((r) => r.rule)
}
