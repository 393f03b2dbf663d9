import { knowledgeLimits } from '@chatsearch/contracts'
import { DocumentError, documentId } from '../ingest/validate.js'
import { isHttpUrl } from './http-url.js'
import type { IncomingKnowledge } from '../engine/port.js'

const PAGE_FIELDS = new Set(['id', 'title', 'content', 'format', 'url'])
const FAQ_FIELDS = new Set(['id', 'question', 'answer', 'url'])
const FORMATS = new Set(['markdown', 'html', 'text'])
/** NUL and the other C0 controls but tab, line feed and carriage return: never text a reader should see. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/ // eslint-disable-line no-control-regex

function text (item: Record<string, unknown>, field: string, max: number, where: string): string {
  const value = item[field]
  if (value === undefined) throw new DocumentError(`${where}: missing field "${field}"`)
  if (typeof value !== 'string') throw new DocumentError(`${where}: field "${field}" must be a string`)
  if (value.trim() === '') throw new DocumentError(`${where}: field "${field}" is empty`)
  if (value.length > max) throw new DocumentError(`${where}: field "${field}" is longer than ${max} characters`)
  if (CONTROL.test(value)) throw new DocumentError(`${where}: field "${field}" holds control characters`)
  return value
}

function urlOf (item: Record<string, unknown>, where: string): string | undefined {
  if (item.url === undefined) return undefined
  const value = text(item, 'url', knowledgeLimits.urlMaxChars, where)
  if (!isHttpUrl(value)) throw new DocumentError(`${where}: field "url" must be an http or https URL that parses, with a host`)
  return new URL(value).href
}

/**
 * Checks one incoming document: a page `{id, title, content, format?, url?}` or a question-and-answer
 * pair `{id, question, answer, url?}`. `position` is its place in the batch, for the message.
 */
export function validateKnowledge (item: unknown, position: number): IncomingKnowledge {
  let where = `document ${position}`
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new DocumentError(`${where}: must be a JSON object`)
  const fields = item as Record<string, unknown>
  const id = documentId(fields.id, where)
  where = `${where} (id ${id})`
  const faq = 'question' in fields || 'answer' in fields
  const allowed = faq ? FAQ_FIELDS : PAGE_FIELDS
  const unknown = Object.keys(fields).find((key) => !allowed.has(key))
  if (unknown !== undefined) {
    throw new DocumentError(`${where}: unknown field ${JSON.stringify(unknown.slice(0, 64))}; a page has ${[...PAGE_FIELDS].join(', ')} and a question-and-answer pair ${[...FAQ_FIELDS].join(', ')}`)
  }
  const url = urlOf(fields, where)
  const withUrl = url === undefined ? {} : { url }
  if (faq) {
    const question = text(fields, 'question', knowledgeLimits.questionMaxChars, where)
    const answer = text(fields, 'answer', knowledgeLimits.answerMaxChars, where)
    return { id, kind: 'faq', title: question.trim(), content: answer, ...withUrl }
  }
  const title = text(fields, 'title', knowledgeLimits.titleMaxChars, where)
  const content = text(fields, 'content', knowledgeLimits.contentMaxChars, where)
  const format = fields.format ?? 'markdown'
  if (typeof format !== 'string' || !FORMATS.has(format)) throw new DocumentError(`${where}: field "format" must be one of markdown, html, text`)
  return { id, kind: 'page', title: title.trim(), content, format: format as 'markdown', ...withUrl }
}

/** Validates a whole batch before anything is written; of repeated ids the last one wins. */
export function validateKnowledgeBatch (items: unknown[]): IncomingKnowledge[] {
  const byId = new Map<string, IncomingKnowledge>()
  items.forEach((item, i) => {
    const document = validateKnowledge(item, i)
    byId.delete(document.id)
    byId.set(document.id, document)
  })
  return [...byId.values()]
}
