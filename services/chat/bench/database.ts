import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openForPostgresUser, startEmbeddedPostgres } from '@chatsearch/shell'
import { freePort } from '@chatsearch/testkit'

export interface BenchDatabase {
  url: string
  /** Where the database lives, for the report. */
  kind: 'embedded' | 'DATABASE_URL'
  /** The embedded cluster's directory, where its postmaster.pid is. */
  clusterDir?: string
}

/** Registers work to undo at the end of the run, whether it succeeds, fails or is interrupted. */
export type Defer = (undo: () => Promise<unknown>) => void

async function onServer (serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl })
  client.on('error', () => {})
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** A fresh database on the server of `DATABASE_URL`, dropped afterwards. */
async function onDatabaseUrl (serverUrl: string, defer: Defer): Promise<BenchDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`
  defer(() => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  await onServer(serverUrl, `CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), kind: 'DATABASE_URL' }
}

/** A throw-away embedded cluster with the durable settings a real deployment has. */
async function embedded (defer: Defer): Promise<BenchDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-bench-'))
  defer(() => rm(dir, { recursive: true, force: true }))
  await openForPostgresUser(dir)
  const db = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), database: 'bench' })
  defer(db.stop)
  return { url: db.url, kind: 'embedded', clusterDir: join(dir, 'postgres') }
}

/** A fresh database on `DATABASE_URL`'s server when set, otherwise a throw-away embedded cluster. */
export async function openDatabase (defer: Defer): Promise<BenchDatabase> {
  const serverUrl = process.env.DATABASE_URL
  if (serverUrl !== undefined && serverUrl !== '') return await onDatabaseUrl(serverUrl, defer)
  return await embedded(defer)
}
