// A shop's page on its own origin (127.0.0.1, a port of its own), embedding the widget as a shop
// would: one <script> tag with its publishable key.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

interface TestLike { teardown: (fn: () => unknown) => void }

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Serves the page at `/`; resolves with its origin. `attrs` are the script tag's data- attributes,
 * read at each request (a key bound to the page's origin can only be made once the page listens).
 */
export async function shopPage (t: TestLike, chatUrl: string, attrs: Record<string, string>): Promise<string> {
  const html = () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Demo shop</title></head><body><h1>Demo shop</h1><p>Hiking boots, tents and espresso machines.</p>
<script src="${escape(chatUrl)}/widget/v1/loader.js"${Object.entries(attrs).map(([name, value]) => ` data-${name}="${escape(value)}"`).join('')} async></script></body></html>`
  const server = createServer((request, response) => {
    if (request.url !== '/') { response.writeHead(404).end(); return }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve) }))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
