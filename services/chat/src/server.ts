import { closeOnSignal, exitOnConfigError, resolveDatabase } from '@chatsearch/shell'
import { buildApp } from './app.js'
import { chatConfig, readChatEnv } from './config.js'

const env = exitOnConfigError(() => readChatEnv())
const database = await resolveDatabase(env)
const app = await buildApp(chatConfig(env, database.url))

closeOnSignal([app], { graceMs: env.SHUTDOWN_GRACE_MS, after: database.stop })

await app.listen({ host: env.HOST, port: env.CHAT_PORT })
