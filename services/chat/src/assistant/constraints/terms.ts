/**
 * Brands, colours and categories, matched only against the values the catalog has. All three lean to
 * no filter: a missed filter still finds the items by keyword, a wrong one hides them.
 */
import type { CatalogShape, Constraints } from './types.js'
import { CONTEXT_BEFORE, HEAD_AFTER, NOT_A_COLOR_BEFORE, PLAIN_COLORS } from '../lexicon.js'
import { END, START, STRICT_END, STRICT_START, alternation, neighbours, numberForms, replaceMatches, termKey } from './text.js'

/** Other spellings a shopper may use for a colour. */
function colorSpellings (value: string): string[] {
  const lower = value.toLowerCase()
  return [...new Set([lower, lower.replace(/grey/g, 'gray'), lower.replace(/gray/g, 'grey'), lower.replace(/colour/g, 'color'), lower.replace(/color/g, 'colour')])]
}

/** The last word of a name in both numbers: "Running Shoes" ~ "running shoe". */
function nameForms (name: string): string[] {
  const words = name.trim().split(/\s+/)
  const last = words.pop() ?? ''
  return numberForms(last).map((form) => [...words, form].join(' '))
}

/** The parts of a name that joins several kinds of product: "Tents & Camping" → tents, camping. */
function partsOf (name: string): string[] {
  const parts = name.split(/\s*(?:&|,|\band\b)\s*/i).map((p) => p.trim()).filter((p) => p !== '')
  return parts.length > 1 ? parts : []
}

interface Lookup {
  re: RegExp
  byKey: Map<string, Set<string>>
}

function lookup (entries: Array<[phrase: string, value: string]>, wrap: (alternatives: string) => string): Lookup {
  const byKey = new Map<string, Set<string>>()
  for (const [phrase, value] of entries) {
    const key = termKey(phrase)
    byKey.set(key, (byKey.get(key) ?? new Set()).add(value))
  }
  return { re: new RegExp(wrap(alternation(entries.map(([phrase]) => phrase))), 'giu'), byKey }
}

interface Terms {
  brands: Lookup
  colorsInContext: Lookup
  plainColors: Lookup
  fullCategories: Lookup
  categoryParts: Lookup
}

function compile (shape: CatalogShape): Terms {
  // a blank value would match everywhere
  const values = (attribute: string) => shape.filterable.includes(attribute)
    ? (shape.values[attribute] ?? []).filter((v) => v.trim() !== '')
    : []
  const colors = values('color').flatMap((v) => colorSpellings(v).map((s): [string, string] => [s, v]))
  const plain = colors.filter(([s]) => PLAIN_COLORS.has(termKey(s)))
  const categories = values('category')
  // a part that is an activity ("Camping", "Cycling") says what a product is for, not what it is
  const parts = categories.flatMap((v) => partsOf(v).filter((p) => p.length >= 3 && !/ing$/i.test(p))
    .flatMap((p) => nameForms(p).map((f): [string, string] => [f, v])))
  const colorWord = '(?:colou?r(?:ed|way)?|finish|tone)'
  return {
    // "from"/"by" go with the brand: "a racing shoe from Velora" is a racing shoe
    brands: lookup(values('brand').map((v) => [v, v]), (alt) => `${START}(?:(?:made\\s+)?(?:from|by)\\s+)?(${alt})(?:'s)?${END}`),
    colorsInContext: lookup(colors, (alt) => `${START}(?:in\\s+(?:an?\\s+|the\\s+)?(${alt})(?:\\s+${colorWord})?|(?:colou?r(?:way)?|finish)\\s*:?\\s*(${alt})|(${alt})[\\s-]+${colorWord})${END}`),
    plainColors: lookup(plain, (alt) => `${START}(${alt})${END}${NOT_A_COLOR_BEFORE}`),
    fullCategories: lookup(categories.flatMap((v) => nameForms(v).map((f): [string, string] => [f, v])), (alt) => `${STRICT_START}(${alt})${STRICT_END}`),
    categoryParts: lookup(parts, (alt) => `${STRICT_START}(${alt})${STRICT_END}`)
  }
}

const compiled = new WeakMap<CatalogShape, Terms>()

function termsOf (shape: CatalogShape): Terms {
  let terms = compiled.get(shape)
  if (terms === undefined) {
    terms = compile(shape)
    compiled.set(shape, terms)
  }
  return terms
}

/** The values a match stands for (its first defined group). */
function valuesOf (l: Lookup, m: RegExpExecArray): string[] {
  const text = m.slice(1).find((g) => g !== undefined) ?? m[0]
  return [...(l.byKey.get(termKey(text)) ?? [])]
}

function addUnique (list: string[], values: string[]): void {
  for (const v of values) if (!list.includes(v)) list.push(v)
}

/**
 * Takes brand and colour words out of `text` into `c`: the filter covers them, and the item's text may
 * not repeat them (a colour lives in its own field). plan.ts puts a lone brand back when nothing else is left.
 */
export function extractBrandsAndColors (text: string, shape: CatalogShape, c: Constraints): string {
  const terms = termsOf(shape)
  let rest = text
  for (const [l, list] of [[terms.brands, c.brands], [terms.colorsInContext, c.colors], [terms.plainColors, c.colors]] as const) {
    rest = replaceMatches(rest, l.re, (m) => {
      addUnique(list, valuesOf(l, m))
      return true
    })
  }
  return rest
}

/**
 * The categories `text` names. A full name ("running shoes", "Kitchen and Cookware") counts unless it is
 * the shopper's context ("a pack for cycling"). A part of a joined name ("tents" of "Tents & Camping")
 * counts only as the head of its phrase ("tents for two", not "tent stakes"), not after an -ing word
 * ("sleeping bag" is no bag of "Backpacks & Bags"; "gaming laptop" is lost too, but the keywords still
 * find it) nor as context ("protects my laptop"), and only when all such parts point at one category.
 */
export function matchCategories (text: string, shape: CatalogShape): string[] {
  const terms = termsOf(shape)
  const found = (l: Lookup, keep: (before: string, after: string) => boolean): string[] => {
    const out: string[] = []
    for (const m of text.matchAll(l.re)) {
      const { before, after } = neighbours(text, m.index, m.index + m[0].length)
      if (!CONTEXT_BEFORE.has(before) && keep(before, after)) addUnique(out, valuesOf(l, m as RegExpExecArray))
    }
    return out
  }
  const full = found(terms.fullCategories, () => true)
  if (full.length > 0) return full
  const partial = found(terms.categoryParts, (before, after) => HEAD_AFTER.has(after) && !/^[^-]{2,}ing$/.test(before))
  return partial.length === 1 ? partial : []
}
