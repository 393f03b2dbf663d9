// What the admin CLI uses to queue knowledge work and run it as one more replica: the task queue,
// the knowledge task handlers and the upload checks, without the HTTP app. Loaded only by the
// commands that need them (the parsers, crawler and PDF reader take about a second to load).
export { searchMigrations } from './migrations.js'
export { checkFile, FileRejected, type UploadedFile } from './knowledge/parse/index.js'
export { crawlLimitsOf, knowledgeCrawl, type CrawlLimits, type KnowledgeWriter } from './tasks/knowledge-crawl.js'
export { encodeFiles, knowledgeFiles } from './tasks/knowledge-files.js'
export { TASK_DEFAULTS, TaskQueue, type TaskQueueOptions } from './tasks/queue.js'
