import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { searchHarness } from './helpers.js'

t.test('readyz checks the database and the engine', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-ready-'))
  const h = await searchHarness(t, false, { dataDir })

  t.same((await h.app.inject('/healthz')).json(), { status: 'ok', service: 'search' })
  const ready = await h.app.inject('/readyz')
  t.equal(ready.statusCode, 200)
  t.same(ready.json(), { status: 'ready', service: 'search', checks: { database: 'ok', engine: 'ok' } })

  // The embedded engine's index directory disappears, as a volume that was not mounted.
  await rm(join(dataDir, 'search'), { recursive: true, force: true })
  const lost = await h.app.inject('/readyz')
  t.equal(lost.statusCode, 503)
  t.same(lost.json().checks, { database: 'ok', engine: 'failed' })
  t.equal(lost.json().message, 'not ready: engine (failed)')
  t.notMatch(lost.body, new RegExp(dataDir), 'no path leaks into the body')
  t.equal((await h.app.inject('/healthz')).statusCode, 200)

  await mkdir(join(dataDir, 'search'))
  t.equal((await h.app.inject('/readyz')).statusCode, 200, 'ready again once the directory is back')
})
