import t from 'tap'
import { eventsOf, type ServerEvent } from '../src/sse.js'

/** A body that arrives in these pieces. */
function bodyOf (chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start (controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
      controller.close()
    }
  })
}

async function read (chunks: Array<string | Uint8Array>): Promise<ServerEvent[]> {
  const events: ServerEvent[] = []
  for await (const event of eventsOf(bodyOf(chunks))) events.push(event)
  return events
}

const reply = 'event: delta\ndata: {"text":"Grüße "}\n\nevent: reset\ndata: {}\n\nevent: done\ndata: {"chat_id":"c1"}\n\n'
const expected = [
  { event: 'delta', data: '{"text":"Grüße "}' },
  { event: 'reset', data: '{}' },
  { event: 'done', data: '{"chat_id":"c1"}' }
]

t.test('events come out whole however the body is cut', async (t) => {
  t.same(await read([reply]), expected, 'in one piece')
  const bytes = new TextEncoder().encode(reply)
  // One byte at a time cuts the two-byte 'ü' and 'ß' in half as well.
  t.same(await read([...bytes].map((b) => Uint8Array.of(b))), expected, 'a byte at a time')
})

t.test('CRLF line ends count once, even when a chunk ends between CR and LF', async (t) => {
  t.same(await read(['event: done\r', '\ndata: {}\r', '\n\r', '\n']), [{ event: 'done', data: '{}' }])
})

t.test('several data lines join with a newline; comments and events without data are skipped', async (t) => {
  t.same(await read([': keep-alive\n\nevent: delta\n\ndata: a\ndata: b\n\n']), [{ event: 'message', data: 'a\nb' }])
})

t.test('an event the stream ends in the middle of is not delivered', async (t) => {
  t.same(await read(['event: delta\ndata: {"text":"a"}\n\nevent: done\ndata: {"chat']), [{ event: 'delta', data: '{"text":"a"}' }])
})
