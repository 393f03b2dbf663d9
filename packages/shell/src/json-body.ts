import { isAscii, isUtf8 } from 'node:buffer'
import { Stream } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { limits } from '@chatsearch/contracts'
import { ApiError } from './errors.js'

type Done = (err: Error | null, body?: unknown) => void

/** Methods whose requests carry no body by meaning: an empty JSON body is no body, not an error. */
const BODILESS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS'])

/**
 * A body's text. Bodies are UTF-8 (JSON's only encoding, RFC 8259): another declared charset is 415,
 * and bytes that are not UTF-8 are 400, rather than text stored with U+FFFD where a letter was
 * ("café" sent as Latin-1 became "caf\ufffd").
 */
export function utf8Text (contentType: string | undefined, bytes: Buffer): string {
  checkUtf8(contentType, bytes)
  return bytes.toString('utf8')
}

/** utf8Text's checks alone, for bytes decoded elsewhere (a catalog batch, on the writer thread). */
export function checkUtf8 (contentType: string | undefined, bytes: Uint8Array): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase()
  // ASCII reads the same in UTF-8 and in the charsets that extend ASCII, which some clients declare by default.
  const sameText = charset === undefined || charset === 'utf-8' || charset === 'utf8' || (ASCII_BASED.has(charset) && isAscii(bytes))
  if (!sameText) throw new ApiError('unsupported_media_type', `send the body as UTF-8 (charset=utf-8), not ${charset.slice(0, 40)}`)
  if (!isUtf8(bytes)) throw new ApiError('invalid_request', 'the body is not valid UTF-8')
}
const ASCII_BASED = new Set(['us-ascii', 'ascii', 'iso-8859-1', 'latin1', 'windows-1252'])

/**
 * The JSON body parser: Fastify's own (prototype-poisoning checks included), given the body's UTF-8
 * text (utf8Text), except that a DELETE sent with `Content-Type: application/json` and nothing after
 * it is accepted, as clients do.
 */
export function jsonParser (parse: (request: FastifyRequest, body: string, done: Done) => void) {
  return (request: FastifyRequest, body: string | Buffer, done: Done) => {
    if (body.length === 0 && BODILESS.has(request.method)) {
      done(null, undefined)
      return
    }
    let text: string
    try {
      text = utf8Text(request.headers['content-type'], typeof body === 'string' ? Buffer.from(body) : body)
    } catch (err) {
      done(err as Error)
      return
    }
    parse(request, text, done)
  }
}

/** A UTF-16 code unit of a surrogate pair standing alone: with the `u` flag a whole pair is one code point, not `Cs`. */
const LONE_SURROGATE = /\p{Cs}/u

/**
 * `value` as JSON for a jsonb column, each lone surrogate of a string value written as U+FFFD:
 * requests may no longer carry one (textProblem), but text stored before they were refused (a
 * catalog item's title, say) still reaches replies, citations and events, and jsonb refuses the
 * escape JSON.stringify gives it. Keys are left as they are: the callers' keys are their own names.
 */
export function jsonForDatabase (value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => typeof v === 'string' && LONE_SURROGATE.test(v) ? v.replace(LONE_SURROGATES, '\ufffd') : v)
}
const LONE_SURROGATES = /\p{Cs}/gu

/**
 * What is wrong with one text of a request, if anything: a NUL character, which PostgreSQL text
 * cannot hold, or a lone surrogate (JSON's "\ud800" escape standing alone), which is no character:
 * PostgreSQL's jsonb refuses it and its text gets U+FFFD in its place, so it would either fail a
 * later write that quotes it (a citation, a webhook event) or change as it is stored.
 */
export function textProblem (text: string): string | undefined {
  if (text.includes('\u0000')) return 'text must not contain the NUL character (\\u0000)'
  if (LONE_SURROGATE.test(text)) return 'text must be well-formed Unicode: it holds a lone surrogate (an escape \\ud800–\\udfff without its pair)'
  return undefined
}

/**
 * Walks a parsed value without recursion (a body nested thousands of levels deep must not overflow
 * the stack) and names what is wrong with it: nesting deeper than `jsonMaxDepth`, a number too
 * large to be finite, or a text (a key included) that `textProblem` refuses.
 */
export function jsonProblem (value: unknown, maxDepth: number = limits.jsonMaxDepth): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (typeof item === 'string') {
      const problem = textProblem(item)
      if (problem !== undefined) return problem
      continue
    }
    // JSON.parse reads 1e309 as Infinity, which JSON cannot write back: it would be stored as null.
    if (typeof item === 'number' && !Number.isFinite(item)) return 'a number is beyond what a JSON number holds here (about ±1.8e308)'
    if (item === null || typeof item !== 'object') continue
    // A body handed on as a stream (a multipart upload streamed through) or as bytes is not parsed JSON.
    if (item instanceof Stream || ArrayBuffer.isView(item)) continue
    if (depth >= maxDepth) return `the JSON is nested more than ${maxDepth} levels deep`
    if (Array.isArray(item)) {
      for (const element of item) stack.push([element, depth + 1])
      continue
    }
    for (const [key, element] of Object.entries(item)) {
      const problem = textProblem(key)
      if (problem !== undefined) return problem
      stack.push([element, depth + 1])
    }
  }
  return undefined
}

/**
 * preValidation: refuses path parameters, a query or a body that `jsonProblem` finds fault with,
 * before the schema sees them (a chat id of "%00" in the path would otherwise reach PostgreSQL).
 */
export async function checkJson (request: { params: unknown, body: unknown, query: unknown }) {
  const problem = jsonProblem(request.params) ?? jsonProblem(request.query) ?? jsonProblem(request.body)
  if (problem !== undefined) throw new ApiError('invalid_request', problem)
}
