import t from 'tap'
import { openApiPlugin } from '../src/openapi.js'
import { createServer } from '../src/server.js'

async function appWithDocs () {
  const app = createServer({ name: 'test', logLevel: 'silent' })
  await app.register(openApiPlugin, { title: 'Test API', description: 'test', version: '1.0.0' })
  app.get('/things', { schema: { tags: ['things'], summary: 'Some things' } }, async () => [])
  await app.ready()
  t.teardown(() => app.close())
  return app
}

t.test('/docs sends the browser to docs/, whose page links everything relatively', async (t) => {
  const app = await appWithDocs()
  for (const url of ['/docs', '/docs?x=1']) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 302, url)
    t.equal(res.headers.location, 'docs/', `${url}: a relative redirect, right under a gateway's prefix too`)
  }
  const page = await app.inject('/docs/')
  t.equal(page.statusCode, 200)
  const links = [...page.body.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!)
  t.ok(links.length >= 5)
  t.same(links.filter((link) => !link.startsWith('./static/')), [], 'no absolute link')
  for (const link of links) t.equal((await app.inject(`/docs/${link.slice(2)}`)).statusCode, 200, link)
})

t.test('the OpenAPI document names where the API is: / directly, the gateway\'s prefix behind it', async (t) => {
  const app = await appWithDocs()
  const servers = async (url: string, prefix?: string) => (await app.inject({ url, headers: prefix === undefined ? {} : { 'x-forwarded-prefix': prefix } })).json().servers
  for (const url of ['/openapi.json', '/docs/json']) {
    t.same(await servers(url), [{ url: '/' }], `${url} directly`)
    t.same(await servers(url, '/chat'), [{ url: '/chat' }], `${url} behind /chat`)
    t.same(await servers(url, '/api/v1/search'), [{ url: '/api/v1/search' }], `${url} behind a deeper prefix`)
    for (const bad of ['http://elsewhere.example', '/a/../b', '/a b', '//host', 'chat', '/x"y']) {
      t.same(await servers(url, bad), [{ url: '/' }], `${url}: ${JSON.stringify(bad)} ignored`)
    }
  }
  t.ok((await app.inject('/openapi.json')).json().paths['/things'], 'the routes are documented as before')
})
