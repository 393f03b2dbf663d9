import t, { type Test } from 'tap'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runScript, type CliResult } from './run.js'

// Each entry point as its script runs it: `pnpm start`, the two services' `server.ts`, `pnpm cli`.
const entryPoints = {
  start: 'src/start.ts',
  chat: '../../services/chat/src/server.ts',
  search: '../../services/search/src/server.ts'
}

const LOG_LEVEL_LINE = 'invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")\n'

function oneLineNoStack (t: Test, res: CliResult, line: string) {
  t.equal(res.code, 1, 'exit code 1')
  t.equal(res.stderr, line, 'one line on stderr')
  t.notMatch(res.stderr, /^\s+at /m, 'no stack trace')
  t.equal(res.stdout, '')
}

// A data directory that must still not exist afterwards: nothing was started.
const untouched = () => join(tmpdir(), `chatsearch-bad-config-${process.pid}-${Math.random().toString(36).slice(2)}`)

for (const [name, script] of Object.entries(entryPoints)) {
  t.test(`${name}: a bad value is one line and exit code 1, before anything starts`, async (t) => {
    const dataDir = untouched()
    oneLineNoStack(t, await runScript(script, [], { LOG_LEVEL: 'loud', DATA_DIR: dataDir, DATABASE_URL: '' }), LOG_LEVEL_LINE)
    t.equal(existsSync(dataDir), false, 'no embedded PostgreSQL was started')
  })
}

t.test('variables that go together are checked before anything starts too', async (t) => {
  const dataDir = untouched()
  oneLineNoStack(t, await runScript(entryPoints.start, [], { SEARCH_ENGINE: 'meilisearch', DATA_DIR: dataDir, DATABASE_URL: '' }),
    'invalid configuration: SEARCH_ENGINE: meilisearch needs MEILI_URL (e.g. http://127.0.0.1:7700)\n')
  oneLineNoStack(t, await runScript(entryPoints.chat, [], { LLM_BASE_URL: 'http://127.0.0.1:9/v1', DATA_DIR: dataDir, DATABASE_URL: '' }),
    'invalid configuration: LLM_BASE_URL is set but LLM_MODEL is not: name the model to ask\n')
  t.equal(existsSync(dataDir), false)
})

t.test('a secret is never repeated in the message', async (t) => {
  const res = await runScript(entryPoints.search, [], { SERVICE_TOKEN: 'short-secret', PG_PORT: 'x', DATA_DIR: untouched(), DATABASE_URL: '' })
  oneLineNoStack(t, res, 'invalid configuration: PG_PORT must be an integer from 1 to 65535 (got "x"); SERVICE_TOKEN must have at least 32 characters\n')
  t.notMatch(res.stderr, 'short-secret')
})

t.test('pnpm cli: the same line as its error, JSON with --json', async (t) => {
  const env = { PG_PORT: 'abc', DATA_DIR: untouched(), DATABASE_URL: '' }
  const human = await runScript('src/cli.ts', ['project', 'list'], env)
  oneLineNoStack(t, human, 'error: invalid configuration: PG_PORT must be an integer from 1 to 65535 (got "abc")\n')
  const json = await runScript('src/cli.ts', ['catalog', 'settings', 'prj_x', '--json'], { ...env, PG_PORT: '', LOG_LEVEL: 'loud' })
  t.equal(json.code, 1)
  t.same(JSON.parse(json.stderr), { error: LOG_LEVEL_LINE.trimEnd() })
})
