import { Readable } from 'node:stream'
import type { MessagePages } from '../store/messages.js'

/**
 * `head`, the conversation's messages as a JSON array, then `tail`, encoded a page at a time: a long
 * conversation is sent without being held in memory, and the next page is read only as the client
 * takes the last one (Readable.from pulls on demand).
 */
export function streamMessages<M> (pages: MessagePages<M>, stringify: (message: M) => string, head = '', tail = ''): Readable {
  async function * chunks () {
    let count = 0
    const encode = (messages: M[]) => messages.map((m) => (count++ === 0 ? '' : ',') + stringify(m)).join('')
    yield head + '[' + encode(pages.first)
    for await (const page of pages.rest()) yield encode(page)
    yield ']' + tail
  }
  return Readable.from(chunks(), { objectMode: false })
}
