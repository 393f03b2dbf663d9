export { buildApp, consoleMigrations } from './app.js'
export { consoleConfig, readConsoleEnv, ConsoleEnvSchema, type ConsoleConfig, type ConsoleEnv } from './config.js'
export { createUser, deleteUser, findUser, listUsers, setPassword, type User } from './store/users.js'
export { addMember } from './store/memberships.js'
