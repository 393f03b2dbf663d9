/** Stock and rating phrases. Both are removed from the keywords: no item's text says "in stock" or "4 stars". */
import type { Constraints } from './types.js'
import { END, START, replaceMatches } from './text.js'
import { BEST_RATED_SOURCE, CHEAPEST_TERMS, OPENING, termsSource } from '../lexicon.js'

const IN_STOCK = new RegExp(`${START}(?:(?:only|just)\\s+(?:the\\s+)?)?(?:(?:that|which)\\s+(?:are|is)\\s+|(?:that|which)\\s+you\\s+(?:have|got)\\s+)?` +
  '(?:(?:currently|still|now|actually)\\s+)?in[\\s-]stock(?:\\s+(?:only|now|right\\s+now|today|ones?|items?|products?|options?))?' + END, 'giu')
const AVAILABLE_NOW = new RegExp(`${START}(?:(?:that|which)\\s+(?:are|is)\\s+)?(?:available\\s+(?:right\\s+)?(?:now|today|immediately)|` +
  '(?:ships?|shipping)\\s+(?:right\\s+)?(?:now|today|immediately)|ready\\s+to\\s+ship|' +
  '(?:can|could)\\s+(?:i|we)\\s+(?:order|buy|get)\\s+(?:(?:it|them)\\s+)?(?:right\\s+now|now|today|immediately))' + END, 'giu')
/** Said, but not a wish for a filter: the shopper would then see nothing. */
const NOT_IN_STOCK = new RegExp(`${START}(?:out\\s+of\\s+stock|(?:not|no\\s+longer|isn't|aren't)\\s+in[\\s-]stock|sold\\s+out)${END}`, 'giu')

/**
 * A yes/no question about a definite item ("is the Kettleby espresso machine in stock?", "are they in
 * stock?"): the shopper wants to know, so the item must be found whatever its stock. Existential
 * questions ("are there any tents in stock?") and "which … can I order right now?" do ask for stock.
 */
const STOCK_QUESTION = new RegExp(String.raw`${OPENING}(?:(?:is|are)\s+(?!there\b|any\b)|(?:do|does)\s+(?:you|u)\s+(?:have|carry|sell|stock)\s+(?:the|this|that|these|those|it|them|your)\b|(?:has|have)\s+(?:the|this|that|it|they|you)\b|when\b|will\b|(?:can|could)\s+(?:you\s+(?:check|tell|see)|(?:i|we)\s+(?:order|buy|get)\s+(?:the|this|that|these|those|it|them))\b)`, 'i')

function isStockQuestion (text: string, m: RegExpExecArray): boolean {
  const atEnd = /^[\s?.!]*$/.test(text.slice(m.index + m[0].length))
  const required = /^(?:only|just|that|which)\b/i.test(m[0])
  return atEnd && !required && STOCK_QUESTION.test(text)
}

/** Takes stock phrases out of `text`; only a phrase that asks for stock sets `inStock`. */
export function extractStock (text: string, c: Constraints): string {
  let rest = text.replace(NOT_IN_STOCK, ' ')
  for (const re of [IN_STOCK, AVAILABLE_NOW]) {
    const before = rest
    rest = replaceMatches(rest, re, (m) => {
      if (!isStockQuestion(before, m)) c.inStock = true
      return true
    })
  }
  return rest
}

/** A star count from 1 to 5, not part of a longer number nor a temperature ("rated to 0°F"). */
const STARS = '(?<![\\d.])([1-5](?:\\.\\d)?)(?!\\d|\\.\\d|\\s*[°%])'
const OR_MORE = '(?:\\s*\\+|\\s+(?:and|or)\\s+(?:up|above|higher|over|more|better)|\\s+plus)?'
const RATING_RULES: RegExp[] = [
  `${START}rated\\s+(?:at\\s+least\\s+|over\\s+|above\\s+|more\\s+than\\s+)?${STARS}(?:\\s*-?\\s*stars?)?${OR_MORE}`,
  `${START}(?:(?:at\\s+least|minimum(?:\\s+of)?|min)\\s+)?${STARS}\\s*\\+?\\s*-?\\s*stars?(?:\\s+(?:rated|rating|reviews?))?${OR_MORE}`,
  `${START}(?:a\\s+)?rating\\s+(?:of\\s+)?(?:at\\s+least\\s+|over\\s+|above\\s+)?${STARS}(?:\\s*(?:stars?|/\\s*5|out\\s+of\\s+5))?${OR_MORE}`
].map((source) => new RegExp(source + END, 'giu'))
/** "Highly rated" has no number; 4 stars is where shops draw "highly" (the demo catalog's median is 4.3). */
const WELL_RATED = new RegExp(`${START}(?:highly|best|top|highest|well)[\\s-]+(?:rated|reviewed)${END}`, 'giu')
export const WELL_RATED_MIN = 4

function raise (c: Constraints, rating: number): void {
  c.minRating = c.minRating === undefined ? rating : Math.max(c.minRating, rating)
}

/** Takes rating phrases out of `text` into `c.minRating`. */
export function extractRating (text: string, c: Constraints): string {
  let rest = text
  for (const re of RATING_RULES) {
    rest = replaceMatches(rest, re, (m) => {
      raise(c, Number(m[1]))
      return true
    })
  }
  return replaceMatches(rest, WELL_RATED, () => {
    raise(c, WELL_RATED_MIN)
    return true
  })
}

/** Superlatives that pick among the matches rather than narrow them: the retriever orders by them. */
const CHEAPEST = new RegExp(`${START}(?:${termsSource(CHEAPEST_TERMS)})${END}`, 'iu')
const BEST_RATED = new RegExp(`${START}${BEST_RATED_SOURCE}${END}`, 'iu')

/** Reads the order a message asks for into `c.order`; the words stay for the other extractors (and the filler) to take. */
export function extractOrder (text: string, c: Constraints): void {
  if (CHEAPEST.test(text)) c.order = 'price'
  else if (BEST_RATED.test(text)) c.order = 'rating'
}
