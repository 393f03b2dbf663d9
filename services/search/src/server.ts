import closeWithGrace from 'close-with-grace'
import { resolveDatabase } from '@chatsearch/shell'
import { buildApp } from './app.js'
import { readSearchEnv, searchConfig } from './config.js'

const env = readSearchEnv()
const database = await resolveDatabase(env)
const app = await buildApp(searchConfig(env, database.url))

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err !== undefined) app.log.error({ err }, 'shutting down after an error')
  await app.close()
  await database.stop()
})

await app.listen({ host: env.HOST, port: env.SEARCH_PORT })
