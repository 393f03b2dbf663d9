import { readFile } from 'node:fs/promises'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import t from 'tap'
import { panelVersionOf, widgetDist } from '@chatsearch/chat-widget'
import { harness } from './helpers.js'
import { encodingFor } from '../src/routes/widget-files.js'

t.test('the widget\'s scripts, served to any page without a credential', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  const loader = await readFile(widgetDist + 'loader.js')
  const panel = await readFile(widgetDist + 'panel.js')
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers })

  t.test('compressed as the browser accepts: br, then gzip, else plain', async (t) => {
    const br = await get('/widget/v1/loader.js', { 'accept-encoding': 'gzip, deflate, br', origin: 'https://any-shop.example' })
    t.equal(br.statusCode, 200)
    t.equal(br.headers['content-type'], 'text/javascript; charset=utf-8')
    t.equal(br.headers['content-encoding'], 'br')
    t.same(brotliDecompressSync(br.rawPayload), loader, 'the built loader')
    t.ok(br.rawPayload.length < loader.length / 1.5, `smaller: ${br.rawPayload.length} of ${loader.length} B`)
    t.equal(br.headers['access-control-allow-origin'], '*', 'readable from any shop\'s page')
    t.equal(br.headers['cache-control'], 'public, max-age=300', 'the loader\'s URL never changes: cached for minutes')
    t.match(br.headers.vary, /Accept-Encoding/)
    t.equal(br.headers['x-content-type-options'], 'nosniff')
    const gzip = await get('/widget/v1/loader.js', { 'accept-encoding': 'gzip' })
    t.equal(gzip.headers['content-encoding'], 'gzip')
    t.same(gunzipSync(gzip.rawPayload), loader)
    const plain = await get('/widget/v1/loader.js', { 'accept-encoding': 'br;q=0, identity' })
    t.equal(plain.headers['content-encoding'], undefined, 'br;q=0 refuses br')
    t.same(plain.rawPayload, loader)
  })

  t.test('the panel at its content hash is cached for a year; at any other, for minutes', async (t) => {
    const current = await get(`/widget/v1/panel.js?v=${panelVersionOf(panel)}`)
    t.equal(current.statusCode, 200)
    t.equal(current.headers['cache-control'], 'public, max-age=31536000, immutable')
    t.same(current.rawPayload, panel)
    t.match(loader.toString(), 'panel.js', 'the loader asks for the panel')
    t.match(loader.toString(), panelVersionOf(panel), 'with this very hash')
    const old = await get('/widget/v1/panel.js?v=0123456789ab')
    t.equal(old.headers['cache-control'], 'public, max-age=300', 'an old loader\'s hash: the current panel, briefly cached')
    t.equal((await get('/widget/v1/panel.js?v=%3Cscript%3E')).statusCode, 400, 'a version that is no hash is refused')
  })

  t.test('a copy the browser has is answered 304', async (t) => {
    const first = await get('/widget/v1/panel.js')
    const etag = first.headers.etag as string
    t.match(etag, /^"[\w-]+"$/)
    const again = await get('/widget/v1/panel.js', { 'if-none-match': `W/${etag}` })
    t.equal(again.statusCode, 304)
    t.equal(again.rawPayload.length, 0)
    t.equal((await get('/widget/v1/panel.js', { 'if-none-match': '"other"' })).statusCode, 200)
  })

  t.test('any other file under /widget is 404 not_found', async (t) => {
    for (const url of ['/widget/v1/other.js', '/widget/v1/', '/widget/v1/../package.json', '/widget/v2/loader.js', '/widget/v1/loader.js.map']) {
      const res = await get(url)
      t.equal(res.statusCode, 404, url)
      t.equal(res.json().code, 'not_found', url)
    }
  })
})

t.test('Accept-Encoding is read with its weights', async (t) => {
  t.equal(encodingFor(undefined), 'identity')
  t.equal(encodingFor('gzip;q=0.5, br;q=1'), 'br')
  t.equal(encodingFor('br;q=0.0, gzip'), 'gzip')
  t.equal(encodingFor('*'), 'gzip')
  t.equal(encodingFor('deflate'), 'identity')
})
