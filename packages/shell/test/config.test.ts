import t from 'tap'
import { Type } from 'typebox'
import { commonEnv, loadConfig } from '../src/config.js'

const Schema = Type.Object({ ...commonEnv, PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }), DEMO: Type.Boolean({ default: true }) })

t.test('defaults, conversion and unset values', async (t) => {
  const config = loadConfig(Schema, { PORT: '8080', DEMO: 'false', DATABASE_URL: '' })
  t.equal(config.PORT, 8080)
  t.equal(config.DEMO, false)
  t.equal(config.DATA_DIR, './.data')
  t.equal(config.LOG_LEVEL, 'info')
  t.equal(config.DATABASE_URL, undefined, 'an empty variable counts as unset')
  t.equal(config.AUTH_CACHE_TTL_MS, 5000)
})

t.test('bad values fail fast, naming each variable', async (t) => {
  t.throws(() => loadConfig(Schema, { PORT: 'eighty' }), /PORT/)
  t.throws(() => loadConfig(Schema, { PORT: '70000' }), /PORT/)
  t.throws(() => loadConfig(Schema, { LOG_LEVEL: 'loud' }), /LOG_LEVEL/)
  t.throws(() => loadConfig(Schema, { AUTH_CACHE_TTL_MS: '60000' }), /AUTH_CACHE_TTL_MS/, 'revocation delay is bounded')
  try {
    loadConfig(Schema, { PORT: 'x', PG_PORT: 'y' })
    t.fail('should throw')
  } catch (err) {
    t.match((err as Error).message, /PORT[\s\S]*PG_PORT|PG_PORT[\s\S]*PORT/, 'all problems at once')
  }
})
