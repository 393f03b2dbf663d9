import { closeOnSignal, exitOnConfigError, limitHeapGrowth, resolveDatabase } from '@chatsearch/shell'
import { buildApp } from './app.js'
import { consoleConfig, readConsoleEnv } from './config.js'

const env = exitOnConfigError(() => readConsoleEnv())
limitHeapGrowth(env.HEAP_GROWTH_PERCENT)
const database = await resolveDatabase(env)
const app = await buildApp(consoleConfig(env, database.url))

closeOnSignal([app], { graceMs: env.SHUTDOWN_GRACE_MS, after: database.stop })

await app.listen({ host: env.HOST, port: env.CONSOLE_PORT })
