import t from 'tap'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { harness } from './helpers.js'

t.test('the built web app: hashed assets cached for good, index.html for the app\'s routes and never cached', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'console-web-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(join(root, 'assets'))
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Console</title><script type="module" src="/assets/app-3f9a1c.js"></script>')
  await writeFile(join(root, 'assets', 'app-3f9a1c.js'), 'console.log("app")')
  await writeFile(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  const h = await harness(t)
  const app = await h.app({ webRoot: root })

  const asset = await app.inject({ method: 'GET', url: '/assets/app-3f9a1c.js' })
  t.equal(asset.statusCode, 200)
  t.equal(asset.body, 'console.log("app")')
  t.match(String(asset.headers['content-type']), /javascript/)
  t.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable')

  for (const url of ['/', '/index.html', '/projects/prj_1/chats', '/sign-in?next=%2F']) {
    const page = await app.inject({ method: 'GET', url })
    t.equal(page.statusCode, 200, url)
    t.match(page.body, /<title>Console<\/title>/, `${url}: index.html`)
    t.equal(page.headers['cache-control'], 'no-cache', `${url}: revalidated every time`)
  }
  const icon = await app.inject({ method: 'GET', url: '/favicon.svg' })
  t.equal(icon.headers['cache-control'], 'no-cache', 'a file without a hash in its name is revalidated')

  const api = await app.inject({ method: 'GET', url: '/api/nothing-here' })
  t.equal(api.statusCode, 404, 'an unknown API path is not the web app')
  t.equal(api.json().code, 'not_found')
  const traversal = await app.inject({ method: 'GET', url: '/assets/..%2f..%2fpackage.json' })
  t.notMatch(traversal.body, /"name"/, 'no file outside the build is served')
})

t.test('the web app is sent compressed to a browser that accepts it (the API is not)', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'console-web-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(join(root, 'assets'))
  const script = Array.from({ length: 2000 }, (_, i) => `export const value${i} = ${i}`).join('\n')
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Console</title>')
  await writeFile(join(root, 'assets', 'app-big.js'), script)
  const h = await harness(t)
  const app = await h.app({ webRoot: root })

  const gzipped = await app.inject({ method: 'GET', url: '/assets/app-big.js', headers: { 'accept-encoding': 'gzip' } })
  t.equal(gzipped.statusCode, 200)
  t.equal(gzipped.headers['content-encoding'], 'gzip')
  t.equal(gunzipSync(gzipped.rawPayload).toString(), script, 'the same bytes once unzipped')
  t.ok(gzipped.rawPayload.length < script.length / 3, `${gzipped.rawPayload.length} bytes sent for ${script.length}`)
  t.equal(gzipped.headers['cache-control'], 'public, max-age=31536000, immutable')
  const brotli = await app.inject({ method: 'GET', url: '/assets/app-big.js', headers: { 'accept-encoding': 'br, gzip' } })
  t.equal(brotli.headers['content-encoding'], 'br', 'brotli first when both are accepted')
  t.equal(brotliDecompressSync(brotli.rawPayload).toString(), script)
  const plain = await app.inject({ method: 'GET', url: '/assets/app-big.js', headers: { 'accept-encoding': 'identity' } })
  t.equal(plain.headers['content-encoding'], undefined)
  t.equal(plain.body, script, 'sent as is to a client that asks for no encoding')
  const api = await app.inject({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } })
  t.equal(api.statusCode, 200)
  t.equal(api.headers['content-encoding'], undefined, 'the API outside the web app is not compressed')
})

t.test('without a build, a page says the web app is not built', async (t) => {
  const h = await harness(t)
  const app = await h.app({ webRoot: join(tmpdir(), 'console-web-missing-' + String(Date.now())) })
  const res = await app.inject({ method: 'GET', url: '/' })
  t.equal(res.statusCode, 200)
  t.match(String(res.headers['content-type']), /text\/html/)
  t.match(res.body, /not built/)
  t.match(res.body, /pnpm --filter @chatsearch\/console-web build/)
  t.equal((await app.inject({ method: 'GET', url: '/healthz' })).json().service, 'console', 'the health routes are the service\'s own')
})
