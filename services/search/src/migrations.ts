import { fileURLToPath } from 'node:url'

/** The search service's own tables (analytics events, clicks and conversions, tasks, search rules), migrated by the app and by the CLI before it queues a task. */
export const searchMigrations = fileURLToPath(new URL('../migrations', import.meta.url))
