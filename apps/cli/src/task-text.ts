import type { Task, TaskType } from '@chatsearch/contracts'
import { plural } from './plural.js'

/** What a task's progress counts, singular. */
export const unitOf = (type: TaskType) => type === 'files' ? 'file' : type === 'crawl' ? 'page' : 'item'
/** What a task's progress bar says it does. */
export const labelOf = (type: TaskType) => type === 'files' ? 'indexing' : type === 'crawl' ? 'crawling' : 'importing'

// The details each task type writes (services/search/src/tasks/): what was done, what was skipped and why.
interface FilesDetails { indexed: number, unchanged: number, documents: Array<{ file: string, id: string, chunks: number }>, skipped: Array<{ file: string, reason: string }> }
interface CrawlDetails { pages: number, indexed: number, unchanged: number, removed: number, truncated: boolean, skipped: Array<{ url: string, reason: string }>, skipped_more: number }
interface CatalogDetails { received: number, indexed: number, unchanged: number, total: number }

const changes = (d: { indexed: number, unchanged: number }) => `${d.indexed.toLocaleString('en')} new or changed, ${d.unchanged.toLocaleString('en')} unchanged`

function detailLines (task: Task): string[] {
  const details = task.details
  if (Object.keys(details).length === 0) return []
  if (task.type === 'files' && Array.isArray(details.documents)) {
    const d = details as unknown as FilesDetails
    const lines = [`indexed ${plural(d.documents.length, 'file')}: ${changes(d)}`, ...d.documents.map((doc) => `  ${doc.id}  ${doc.file} (${plural(doc.chunks, 'chunk')})`)]
    if (d.skipped.length > 0) lines.push(`skipped ${plural(d.skipped.length, 'file')}:`, ...d.skipped.map((s) => `  ${s.file}: ${s.reason}`))
    return lines
  }
  if (task.type === 'crawl' && typeof details.pages === 'number') {
    const d = details as unknown as CrawlDetails
    const lines = [`indexed ${plural(d.pages, 'page')}: ${changes(d)}, ${d.removed.toLocaleString('en')} removed (no longer on the site)`]
    if (d.truncated) lines.push('stopped at the page limit (max pages): the site has more pages, and none was removed')
    const skipped = d.skipped.length + d.skipped_more
    if (skipped > 0) {
      lines.push(`skipped ${plural(skipped, 'URL')}:`, ...d.skipped.map((s) => `  ${s.url}: ${s.reason}`))
      if (d.skipped_more > 0) lines.push(`  … and ${d.skipped_more.toLocaleString('en')} more`)
    }
    return lines
  }
  if (task.type === 'catalog_import' && typeof details.received === 'number') {
    const d = details as unknown as CatalogDetails
    return [`imported ${plural(d.received, 'item')}: ${changes(d)}; ${plural(d.total, 'item')} in the catalog`]
  }
  return [`details: ${JSON.stringify(details)}`]
}

function headline (task: Task): string {
  const head = `task ${task.id} (${task.type}) ${task.status}`
  const { done, total } = task.progress
  if (task.status === 'processing') return total === 0 ? head : `${head}: ${done.toLocaleString('en')}/${plural(total, unitOf(task.type))}`
  if (task.started_at === null || task.finished_at === null) return head
  const seconds = (Date.parse(task.finished_at) - Date.parse(task.started_at)) / 1000
  return `${head} in ${seconds.toFixed(1)}s`
}

/** A task for people: its status, what it did and skipped, its error; `times` adds when it was queued, started and finished. */
export function describeTask (task: Task, { times }: { times: boolean }): string {
  const lines = [headline(task)]
  if (times) {
    lines.push([`enqueued ${task.enqueued_at}`, task.started_at && `started ${task.started_at}`, task.finished_at && `finished ${task.finished_at}`].filter(Boolean).join(', '))
  }
  lines.push(...detailLines(task))
  if (task.error !== null) lines.push(`error: ${task.error.message} (${task.error.code})`)
  return lines.join('\n')
}

/** One line of a task list. */
export function taskLine (task: Task): string {
  const progress = `${task.progress.done}/${task.progress.total}`
  return `${task.id}  ${task.type.padEnd(14)}  ${task.status.padEnd(10)}  ${progress.padStart(9)}  ${task.enqueued_at}${task.error === null ? '' : `  ${task.error.message}`}`
}
