import { Type, type Static } from 'typebox'
import { limits } from './limits.js'
import { DOCUMENT_ID_PATTERN } from './catalog.js'
import { timestampOrNull } from './timestamp.js'

const ItemId = (description: string) => Type.String({ pattern: DOCUMENT_ID_PATTERN, description })
// Either bound may be left out or null (no bound on that side). PUT /rules checks that the window
// is not empty (400 invalid_request) and answers both as ISO 8601 UTC.
const Instant = (description: string) => Type.Optional(timestampOrNull(description))

/** How a rule's query is compared with a search's search_term, both read as their words (case, accents and punctuation ignored). */
export const SearchRuleMatch = Type.Union([Type.Literal('exact'), Type.Literal('contains')], {
  description: '`exact`: the search has exactly the rule\'s words, in order; `contains`: the rule\'s words appear together, ' +
    'in order, somewhere in the search\'s ("linen sofa" applies to "grey linen sofa", not to "linen grey sofa"). ' +
    'A query without a word applies, with `exact`, to an empty search_term (browsing) and, with `contains`, to every search'
})
export type SearchRuleMatch = Static<typeof SearchRuleMatch>

export const SearchRulePin = Type.Object({
  item_id: ItemId('The catalog item to show'),
  position: Type.Integer({
    minimum: 1,
    maximum: limits.searchWindowMax,
    description: 'Its place in the whole result list, 1-based, across pages (position 3 with limit 2 is the first hit of ' +
      'the second page). With fewer results than that, the item comes after the last one'
  })
}, { additionalProperties: false })
export type SearchRulePin = Static<typeof SearchRulePin>

/**
 * A search rule (merchandising): for the searches its query matches, while it is active, pinned
 * items show at their positions and hidden items do not show. Rules are the project's, the same
 * on both engines; POST /search applies them.
 */
export const SearchRule = Type.Object({
  id: Type.String({ minLength: 1, maxLength: limits.idMaxChars, pattern: '^[A-Za-z0-9_-]+$', description: 'Chosen by the caller, unique in the list: letters, digits, `-` and `_`' }),
  query: Type.String({ maxLength: limits.termMaxChars, description: 'Compared with each search\'s search_term as `match` says, both read as their words, ignoring case, accents and punctuation' }),
  match: SearchRuleMatch,
  pin: Type.Optional(Type.Array(SearchRulePin, {
    maxItems: limits.rulePinsMax,
    default: [],
    description: 'Items shown at a position, if they exist and the search\'s filters allow them, whether or not the search finds them; ' +
      'each item and each position once in a rule'
  })),
  hide: Type.Optional(Type.Array(ItemId('A catalog item never shown for these searches'), {
    maxItems: limits.ruleHidesMax,
    uniqueItems: true,
    default: [],
    description: 'Items never shown for these searches. Hiding wins over pinning, in this rule or another one'
  })),
  active_from: Instant('The rule applies from this instant (ISO 8601 with a time zone), included; absent or null: already'),
  active_until: Instant('The rule applies until this instant, excluded; absent or null: for ever')
}, { additionalProperties: false })
export type SearchRule = Static<typeof SearchRule>

/** PUT /rules: the whole list, replacing the one stored; its order is the rules' precedence. */
export const SearchRulesBody = Type.Array(SearchRule, {
  maxItems: limits.rulesMax,
  description: 'Every rule of the project, in precedence order (the first pin of a position keeps it); an empty list removes them all'
})
export type SearchRulesBody = Static<typeof SearchRulesBody>

export const SearchRulesResponse = Type.Object({
  rules: Type.Array(SearchRule, { description: 'As stored, in precedence order: `pin` and `hide` always present, instants in ISO 8601 UTC, absent when unbounded' })
}, { additionalProperties: false })
export type SearchRulesResponse = Static<typeof SearchRulesResponse>
