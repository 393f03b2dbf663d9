// The sample shop page of `pnpm start`: a page on an origin of its own (DEMO_SHOP_PORT) with the
// widget embedded as a shop embeds it, so that the widget can be tried as a shopper meets it.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type pg from 'pg'
import { createKey, listKeys, revokeKey } from '@chatsearch/auth'

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const page = (loaderUrl: string, key: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo shop</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1f}
ul{padding-left:1.2rem}code{background:#f0f2f5;padding:.1rem .3rem;border-radius:4px;word-break:break-all}</style></head>
<body><h1>Demo shop</h1>
<p>Hiking boots, tents, headphones and espresso machines. Open the chat at the bottom right and ask, for example:</p>
<ul><li>Do you have waterproof hiking boots under $150?</li><li>How long does shipping take?</li><li>I want to cancel my order (handed off to the team: answer it in the console, under Conversations)</li></ul>
<p>The widget is embedded with this tag:</p>
<p><code>${escape(`<script src="${loaderUrl}" data-key="${key}" async></script>`)}</code></p>
<script src="${escape(loaderUrl)}" data-key="${escape(key)}" async></script>
</body></html>
`

/** The demo project's widget key for `origins`: the one of an earlier start when it has the same origins, else a new one (the old revoked). */
export async function demoWidgetKey (db: pg.Pool, projectId: string, origins: string[], saved: { widgetKey?: string, widgetKeyId?: string }): Promise<{ widgetKey: string, widgetKeyId: string }> {
  const live = (await listKeys(db, projectId)).find((k) => k.id === saved.widgetKeyId && k.revoked_at === null)
  if (saved.widgetKey !== undefined && live !== undefined && [...live.origins].sort().join(' ') === [...origins].sort().join(' ')) {
    return { widgetKey: saved.widgetKey, widgetKeyId: live.id }
  }
  if (live !== undefined) await revokeKey(db, live.id)
  const created = await createKey(db, projectId, 'widget', 'demo', origins)
  return { widgetKey: created.key, widgetKeyId: created.id }
}

/** Serves the page on host:port (`key` read at each request); resolves with its URL and a way to stop it. */
export async function serveDemoShop (host: string, port: number, loaderUrl: string, key: () => string): Promise<{ url: string, close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/') { response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n'); return }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }).end(page(loaderUrl, key()))
  })
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, host, resolve) })
  const { port: bound } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => { resolve() }) })
  }
}
