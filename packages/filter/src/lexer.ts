/**
 * Splits a filter string into tokens. Words are runs of letters, digits, combining marks, `_`, `-`
 * and `.` (Meilisearch's unquoted words, which it checks with Rust's `char::is_alphanumeric`, plus
 * combining marks so decomposed accents stay in their word); quoted strings use '...' or "..." with
 * backslash escapes. Lexing errors that do not depend on what the parser expects (an unclosed quote, a
 * bad escape) become `invalid` tokens with a `fatal` message, thrown when the parser reaches them, so
 * that an earlier syntax error is reported first.
 */
import { clip } from './errors.js'

export const KEYWORDS = ['AND', 'OR', 'NOT', 'IN', 'TO', 'EXISTS', 'IS', 'NULL', 'EMPTY', 'CONTAINS', 'STARTS', 'WITH'] as const
export type Keyword = typeof KEYWORDS[number]
const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS)

/** The keyword a word spells (keywords are case-insensitive), if any. */
export function keywordOf (word: string): Keyword | undefined {
  if (word.length > 8) return undefined
  const upper = word.toUpperCase()
  return KEYWORD_SET.has(upper) ? upper as Keyword : undefined
}

export type TokenKind = 'word' | 'string' | 'op' | '(' | ')' | '[' | ']' | ',' | 'invalid' | 'eof'

export interface Token {
  kind: TokenKind
  /** UTF-16 index of the first character in the filter. */
  start: number
  /** UTF-16 index just after the token. */
  end: number
  /** A word as written, a quoted string unescaped, an operator, or the text of an invalid token. */
  value: string
  /** For an unquoted word that spells a keyword: the keyword, upper case. */
  keyword?: Keyword
  /** For an invalid token that is an error wherever it appears: the message and its UTF-16 index. */
  fatal?: { detail: string, index: number }
}

const SPACE = /\s+/uy
const WORD = /[\p{Alphabetic}\p{N}\p{M}_.-]+/uy
/** An unrecognised run: up to the next space or syntax character, as Meilisearch shows it. */
const JUNK = /[^\s()[\],=<>!'"]+/uy
const HEX = /^[0-9a-fA-F]+$/

/** Words are what Meilisearch also accepts unquoted (no combining marks there). */
export const MEILISEARCH_WORD = /^[\p{Alphabetic}\p{N}_.-]+$/u

function sticky (re: RegExp, text: string, index: number): string | undefined {
  re.lastIndex = index
  return re.exec(text)?.[0]
}

export function tokenize (text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (true) {
    const space = sticky(SPACE, text, i)
    if (space !== undefined) i += space.length
    if (i >= text.length) {
      tokens.push({ kind: 'eof', start: text.length, end: text.length, value: '' })
      return tokens
    }
    const c = text[i]!
    const start = i
    if (c === '(' || c === ')' || c === '[' || c === ']' || c === ',') {
      tokens.push({ kind: c, start, end: i + 1, value: c })
      i++
    } else if (c === '=' || c === '<' || c === '>' || (c === '!' && text[i + 1] === '=')) {
      const op = text[i + 1] === '=' && c !== '=' ? c + '=' : c
      tokens.push({ kind: 'op', start, end: i + op.length, value: op })
      i += op.length
    } else if (c === '"' || c === '\'') {
      const token = quoted(text, i, c)
      tokens.push(token)
      i = token.end
    } else {
      const word = sticky(WORD, text, i)
      if (word !== undefined) {
        const token: Token = { kind: 'word', start, end: i + word.length, value: word }
        const keyword = keywordOf(word)
        if (keyword !== undefined) token.keyword = keyword
        tokens.push(token)
        i += word.length
      } else {
        const junk = sticky(JUNK, text, i) ?? c
        tokens.push({ kind: 'invalid', start, end: i + junk.length, value: junk })
        i += junk.length
      }
    }
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', 0: '\0', '\\': '\\', '\'': '\'', '"': '"', '/': '/'
}

/** A quoted string starting at `start` (the quote), with its escapes decoded. */
function quoted (text: string, start: number, quote: string): Token {
  let out = ''
  let i = start + 1
  let chunk = i
  while (i < text.length) {
    const c = text[i]!
    if (c === quote) {
      out += text.slice(chunk, i)
      return { kind: 'string', start, end: i + 1, value: out }
    }
    if (c !== '\\') {
      i++
      continue
    }
    out += text.slice(chunk, i)
    const escape = decodeEscape(text, i)
    if (escape === undefined) break // a backslash at the very end: the string is not closed
    if (typeof escape !== 'string') {
      return { kind: 'invalid', start, end: text.length, value: text.slice(start), fatal: escape }
    }
    out += escape
    i += escapeLength(text, i)
    chunk = i
  }
  return {
    kind: 'invalid',
    start,
    end: text.length,
    value: text.slice(start),
    fatal: { detail: `Expression \`${clip(text.slice(start))}\` is missing the following closing delimiter: \`${quote}\``, index: start }
  }
}

/** Length of the escape sequence at `i` (which is a backslash), once it has been validated. */
function escapeLength (text: string, i: number): number {
  const e = text[i + 1]
  if (e === 'x') return 4
  if (e === 'u') return text[i + 2] === '{' ? text.indexOf('}', i) + 1 - i : 6
  return 1 + String.fromCodePoint(text.codePointAt(i + 1)!).length
}

/**
 * The character an escape sequence at `i` stands for; an error for an unknown or malformed one;
 * undefined when the text ends right after the backslash.
 */
function decodeEscape (text: string, i: number): string | { detail: string, index: number } | undefined {
  const e = text[i + 1]
  if (e === undefined) return undefined
  const simple = SIMPLE_ESCAPES[e]
  if (simple !== undefined) return simple
  const malformed = (sequence: string, why: string) => ({ detail: `Malformed value: ${why} \`${clip(sequence, 20)}\``, index: i })
  if (e === 'x') {
    const hex = text.slice(i + 2, i + 4)
    if (hex.length !== 2 || !HEX.test(hex)) return malformed(text.slice(i, i + 4), 'the escape sequence `\\x` needs two hexadecimal digits, in')
    return String.fromCharCode(parseInt(hex, 16))
  }
  if (e === 'u') {
    if (text[i + 2] === '{') {
      const close = text.indexOf('}', i + 3)
      const hex = close === -1 || close > i + 9 ? '' : text.slice(i + 3, close)
      const code = HEX.test(hex) ? parseInt(hex, 16) : NaN
      if (!(code <= 0x10ffff)) return malformed(text.slice(i, close === -1 ? i + 10 : close + 1), 'the escape sequence `\\u{...}` needs 1 to 6 hexadecimal digits naming a Unicode character, in')
      return String.fromCodePoint(code)
    }
    const hex = text.slice(i + 2, i + 6)
    if (hex.length !== 4 || !HEX.test(hex)) return malformed(text.slice(i, i + 6), 'the escape sequence `\\u` needs four hexadecimal digits, in')
    return String.fromCharCode(parseInt(hex, 16))
  }
  const sequence = '\\' + String.fromCodePoint(text.codePointAt(i + 1)!)
  return {
    detail: `Malformed value: unknown escape sequence \`${clip(sequence)}\`; use \`\\\\\` for a backslash`,
    index: i
  }
}
