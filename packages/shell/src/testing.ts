import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openForPostgresUser, startEmbeddedPostgres } from './embedded-postgres.js'

interface Teardown { teardown: (fn: () => unknown) => void }

export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      srv.close(() => resolve(port))
    })
  })
}

/**
 * A fresh, empty PostgreSQL database for one test file: a new database on `DATABASE_URL` when set,
 * otherwise a throw-away embedded cluster. Removed when the test ends.
 */
export async function testDatabase (t: Teardown): Promise<string> {
  const serverUrl = process.env.DATABASE_URL
  if (serverUrl !== undefined && serverUrl !== '') {
    const name = `test_${randomBytes(6).toString('hex')}`
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    t.teardown(async () => {
      const c = new pg.Client({ connectionString: serverUrl })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    })
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    return url.toString()
  }
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-pg-'))
  await openForPostgresUser(dir)
  const db = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), ephemeral: true })
  t.teardown(async () => {
    await db.stop()
    await rm(dir, { recursive: true, force: true })
  })
  return db.url
}
