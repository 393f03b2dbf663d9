import t from 'tap'
import { Type } from 'typebox'
import { commonEnv, ConfigError, loadConfig } from '../src/config.js'

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
  for (const text of ['12.5', '1e3', '0x50', '80 80']) {
    t.throws(() => loadConfig(Schema, { PORT: text }), /PORT must be an integer/, `PORT=${text} is not truncated into an integer`)
  }
  t.equal(loadConfig(Schema, { PORT: ' 8080 ' }).PORT, 8080, 'spaces around an integer are fine')
  t.throws(() => loadConfig(Schema, { LOG_LEVEL: 'loud' }), /LOG_LEVEL/)
  t.throws(() => loadConfig(Schema, { AUTH_CACHE_TTL_MS: '60000' }), /AUTH_CACHE_TTL_MS/, 'revocation delay is bounded')
  try {
    loadConfig(Schema, { PORT: 'x', PG_PORT: 'y' })
    t.fail('should throw')
  } catch (err) {
    t.match((err as Error).message, /PORT[\s\S]*PG_PORT|PG_PORT[\s\S]*PORT/, 'all problems at once')
  }
})

function messageOf (env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(Schema, env)
  } catch (err) {
    if (err instanceof ConfigError) return err.message
    throw err
  }
  throw new Error('no ConfigError')
}

t.test('the message is one line saying what each bad variable must be', async (t) => {
  t.equal(messageOf({ LOG_LEVEL: 'loud' }), 'invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")')
  t.equal(messageOf({ PORT: 'eighty' }), 'invalid configuration: PORT must be an integer from 0 to 65535 (got "eighty")')
  t.equal(messageOf({ DEMO: 'maybe' }), 'invalid configuration: DEMO must be true or false (got "maybe")')
  t.equal(messageOf({ REDIS_URL: 'localhost:6379' }), 'invalid configuration: REDIS_URL must match ^rediss?://')
  t.equal(messageOf({ PG_PORT: '0', LOG_LEVEL: 'LOUD\nER' }),
    'invalid configuration: PG_PORT must be an integer from 1 to 65535 (got "0"); LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "LOUD\\nER")',
    'several variables, one line')
})

t.test('a text value, which may be a secret, is never repeated', async (t) => {
  const message = messageOf({ SERVICE_TOKEN: 'too-short-secret', METRICS_TOKEN: 'tiny', REDIS_URL: 'http://:hunter2@cache' })
  t.equal(message, 'invalid configuration: REDIS_URL must match ^rediss?://; SERVICE_TOKEN must have at least 32 characters; METRICS_TOKEN must have at least 16 characters')
  t.notMatch(message, /secret|tiny|hunter2/)
})
