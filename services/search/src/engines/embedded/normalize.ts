/**
 * How strings and numbers are compared, on both sides: the values stored for a document (flatten.ts)
 * and the values a filter asks for (the embedded engine's filter-index.ts).
 */

/**
 * The form in which strings are stored and compared: trimmed, NFKC-normalised and lower-cased, so that
 * `=`, `IN`, `CONTAINS` and `STARTS WITH` ignore case and compatibility variants (full-width letters,
 * ligatures, composed or decomposed accents) as Meilisearch does. Accents themselves still count:
 * "café" is not "cafe".
 */
export function normalizeString (value: string): string {
  return value.trim().normalize('NFKC').toLowerCase()
}

/** A decimal number as Rust's `f64::from_str` reads it, minus the infinities and NaN. */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/**
 * The number a filter value stands for, if it is one: `10`, `-2.5`, `1e3`, `.5`. Undefined for
 * anything else and for numbers too large to be finite. Meilisearch reads filter values this way to
 * decide whether `=` also matches numbers and whether `>`, `<`, `TO` can match at all.
 */
export function parseNumber (value: string): number | undefined {
  if (value.length > 400 || !NUMBER.test(value)) return undefined
  const n = Number(value)
  return Number.isFinite(n) ? n : undefined
}
