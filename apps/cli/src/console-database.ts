import type pg from 'pg'
import { consoleMigrations } from '@chatsearch/console'
import { migrate } from '@chatsearch/shell'
import { withDatabase } from './database.js'

// What the `user` and `project add-member` commands run, in one module they load when they run.
export { addMember, createUser, deleteUser, listUsers, setPassword } from '@chatsearch/console'
export { requireProject } from './database.js'

/** withDatabase, with the console's tables there too. */
export const withConsoleDatabase = <T>(env: NodeJS.ProcessEnv, work: (db: pg.Pool) => Promise<T>) =>
  withDatabase(env, async (db) => {
    await migrate(db, 'console', consoleMigrations)
    return await work(db)
  })
