export { buildApp } from './app.js'
export { readSearchEnv, searchConfig, SearchEnvSchema, type SearchConfig, type SearchEnv } from './config.js'
