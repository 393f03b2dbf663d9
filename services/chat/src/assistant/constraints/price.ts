/**
 * Price phrases: "under $100", "$50-$100", "around $80", "$50+" … A number only becomes a price when a
 * currency marks it or a price comparator leads to it, and never when a unit follows it ("12-inch",
 * "2 people", "0°F", "4K", "24 kg"): a wrong price bound hides every item the shopper wanted.
 */
import type { Constraints } from './types.js'
import { END, NEAR, START, replaceMatches } from './text.js'
import { CHEAPER_TERMS, termsSource } from '../lexicon.js'

const SYMBOL = '(?:us\\s?\\$|\\$|€|£)'
const CURRENCY_WORD = '(?:usd|eur|gbp|dollars?|bucks|euros?|quid)'
const NUMBER = '(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d{1,2})?'
const UNIT = '(?:people|persons?|players?|kids?|adults?|seats?|seaters?|pieces?|pcs|packs?|pairs?|cups?|quarts?|qt|' +
  'lit(?:er|re)s?|ml|l|oz|ounces?|lbs?|pounds?|kgs?|kilos?|g|grams?|mm|cm|m|met(?:er|re)s?|km|ft|feet|foot|inch(?:es)?|' +
  'mi|miles?|gb|tb|mb|mah|wh|w|watts?|v|volts?|hz|mp|k|p|fps|years?|yrs?|months?|weeks?|days?|hours?|hrs?|minutes?|' +
  'mins?|seconds?|degrees?|percent|stars?|seasons?|speeds?|ports?|slices?|lumens?|db|rpm|psi|bar|spf|layers?|' +
  'gallons?|servings?|sizes?|x)'
/** One amount, glued to no unit: `$1,299`, `1299.99`, `€80`, `100 dollars`, `$2k`. */
const AMOUNT = `((?<![\\p{L}\\p{N}.,$€£])(?:${SYMBOL}\\s?)?${NUMBER}(?:\\s?k)?(?:\\s?(?:${SYMBOL}|${CURRENCY_WORD}${END}))?` +
  `(?![\\p{L}\\p{N}°%"])(?!\\s*-?\\s*${UNIT}${END}))`

/** Words that may come before a price phrase and mean nothing without it ("for under $250"). */
const LEAD = `(?:${START}(?:for|at|priced|costing|(?:that|which)\\s+costs?|and)\\s+)?`
const MAX = `(?:under|below|less\\s+than|(?:${termsSource(CHEAPER_TERMS)})\\s+than|lower\\s+than|no\\s+more\\s+than|` +
  'not\\s+more\\s+than|nothing\\s+(?:over|above|more\\s+than)|not\\s+over|no\\s+higher\\s+than|at\\s+most|' +
  'max(?:imum)?(?:\\s+of)?|(?:(?:my|a|the)\\s+)?budget(?:\\s+(?:of|is))?)'
const MIN = '(?:over|above|more\\s+than|at\\s+least|min(?:imum)?(?:\\s+of)?)'
/** Comparators that also lead to non-prices ("up to 4 people", "from 2019"): only with a currency. */
const MAX_IF_MARKED = '(?:up\\s+to|within)'
const MIN_IF_MARKED = '(?:from|starting\\s+(?:at|from)|north\\s+of)'
const AROUND = '(?:around|about|approximately|approx\\.?|roughly|circa|something\\s+like)'

/** A bare number after "under" is an age or a head count here, not a price ("toys for kids under 5"). */
const NOT_PRICE_CONTEXT = /(?:kids?|children|child|toddlers?|babies|baby|ages?|aged|people|persons?|players?|adults?|boys?|girls?|teens?|weigh\w*|weight|sizes?|years?)\s+(?:[\p{L}']+\s+)?$/iu

interface Amount { value: number, marked: boolean }

function readAmount (raw: string | undefined): Amount | undefined {
  if (raw === undefined) return undefined
  const digits = /\d[\d,]*(?:\.\d+)?/.exec(raw)?.[0]
  if (digits === undefined) return undefined
  const marked = /[$€£]|usd|eur|gbp|dollar|buck|euro|quid/i.test(raw)
  const thousands = /\d\s?k/i.test(raw)
  // "4K" is a screen, "$2k" a budget
  if (thousands && !marked) return undefined
  const value = Number(digits.replace(/,/g, '')) * (thousands ? 1000 : 1)
  return Number.isFinite(value) && value > 0 ? { value: round2(value), marked } : undefined
}

const round2 = (n: number) => Math.round(n * 100) / 100

type Bound = 'max' | 'min' | 'range' | 'around' | 'none'

interface Rule {
  re: RegExp
  bound: Bound
  /** Every amount must carry a currency (else at least one, for ranges). */
  needsCurrency: boolean
}

const rule = (source: string, bound: Bound, needsCurrency: boolean): Rule =>
  ({ re: new RegExp(source, 'giu'), bound, needsCurrency })

/** In order: ranges before single bounds, "nothing over" before "over", and last any amount left. */
const RULES: Rule[] = [
  rule(`${LEAD}${START}between\\s+${AMOUNT}\\s+(?:and|-|to)\\s+${AMOUNT}`, 'range', false),
  rule(`${LEAD}(?:${START}from\\s+)?${AMOUNT}\\s*(?:-|to)\\s*${AMOUNT}`, 'range', true),
  rule(`${LEAD}(?:${START}${AROUND}\\s+|~\\s?)${AMOUNT}`, 'around', true),
  rule(`${LEAD}${AMOUNT}(?:\\s+or\\s+so|-?ish)${END}`, 'around', true),
  rule(`${LEAD}${START}${MAX}\\s+${AMOUNT}`, 'max', false),
  rule(`${LEAD}${START}${MAX_IF_MARKED}\\s+${AMOUNT}`, 'max', true),
  rule(`${LEAD}${AMOUNT}\\s+(?:(?:or|and)\\s+(?:less|under|below|lower|cheaper)|max(?:imum)?|tops|at\\s+most)${END}`, 'max', false),
  rule(`${LEAD}${START}${MIN}\\s+${AMOUNT}`, 'min', false),
  rule(`${LEAD}${START}${MIN_IF_MARKED}\\s+${AMOUNT}`, 'min', true),
  rule(`${LEAD}${AMOUNT}\\s*\\+`, 'min', true),
  rule(`${LEAD}${AMOUNT}\\s+(?:(?:or|and)\\s+(?:more|over|above|up|higher)|min(?:imum)?|at\\s+least)${END}`, 'min', false),
  // "a $100 tent" states no bound, but the amount is no keyword either
  rule(AMOUNT, 'none', true)
]

function setMax (c: Constraints, value: number): void {
  c.priceMax = c.priceMax === undefined ? value : Math.min(c.priceMax, value)
}

function setMin (c: Constraints, value: number): void {
  c.priceMin = c.priceMin === undefined ? value : Math.max(c.priceMin, value)
}

/** Records the bound of one accepted match; false when the amounts are not prices after all. */
function apply (r: Rule, m: RegExpExecArray, text: string, c: Constraints): boolean {
  const amounts = [readAmount(m[1]), readAmount(m[2])].filter((a): a is Amount => a !== undefined)
  const expected = r.bound === 'range' ? 2 : 1
  if (amounts.length !== expected) return false
  const marked = amounts.some((a) => a.marked)
  if (r.needsCurrency && !marked) return false
  if (!marked && NOT_PRICE_CONTEXT.test(text.slice(Math.max(0, m.index - NEAR), m.index))) return false
  const [a, b] = amounts.map((x) => x.value) as [number, number | undefined]
  switch (r.bound) {
    case 'max': setMax(c, a); break
    case 'min': setMin(c, a); break
    case 'range': setMin(c, Math.min(a, b ?? a)); setMax(c, Math.max(a, b ?? a)); break
    case 'around': setMin(c, round2(a * 0.8)); setMax(c, round2(a * 1.2)); break
    case 'none': break
  }
  return true
}

/** Takes the price phrases out of `text` into `c`; returns what is left. */
export function extractPrice (text: string, c: Constraints): string {
  let rest = text
  for (const r of RULES) {
    const before = rest
    rest = replaceMatches(rest, r.re, (m) => apply(r, m, before, c))
  }
  return rest
}
