export { buildApp, chatMigrations, type ChatParts } from './app.js'
export { chatConfig, readChatEnv, ChatEnvSchema, type ChatConfig, type ChatEnv } from './config.js'
export type { Classifier } from './assistant/classifier.js'
