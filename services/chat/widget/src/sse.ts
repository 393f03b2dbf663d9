/** Server-sent events read from a fetch body (EventSource cannot POST). */
export interface ServerEvent { event: string, data: string }

/** Server-sent events from a response body, as they arrive (the `event:` and `data:` lines of each). */
export async function * eventsOf (body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let current: ServerEvent = { event: 'message', data: '' }
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    let newline: number
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A '\r' that ends the chunk may be the first half of '\r\n': wait for the next one.
      if (newline === buffer.length - 1 && buffer[newline] === '\r') break
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1))
      if (line === '') {
        if (current.data !== '') yield current
        current = { event: 'message', data: '' }
      } else if (line.startsWith('event:')) {
        current.event = line.slice(6).trim()
      } else if (line.startsWith('data:')) {
        const data = line.slice(5).replace(/^ /, '')
        current.data = current.data === '' ? data : current.data + '\n' + data
      }
    }
  }
}
