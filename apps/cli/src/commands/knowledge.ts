import { Option, type Command } from 'commander'
import { Value } from 'typebox/value'
import { KnowledgeCrawlBody, KnowledgeKind, knowledgeLimits } from '@chatsearch/contracts'
import { UsageError } from '../errors.js'
import type { KnowledgePage } from '../knowledge.js'
import type { KnowledgeWork } from '../knowledge-add.js'
import { plural } from '../plural.js'
import type { CommandContext } from './context.js'
import { printEnded, withTaskBar } from './follow.js'
import { integer } from './integer.js'
import { pageText } from './page.js'

const HTTP_URL = /^https?:\/\//i
/** The bounds and default of POST /knowledge/crawl's max_pages, from its schema. */
const maxPages = KnowledgeCrawlBody.properties.max_pages as unknown as { default: number, minimum: number, maximum: number }

interface AddOptions { url?: string, maxPages?: number, wait: boolean }

/** A crawl of one URL, or files; the mistakes a user can make in choosing are usage errors. */
async function workOf (sources: string[], options: AddOptions): Promise<KnowledgeWork> {
  const urls = sources.filter((s) => HTTP_URL.test(s))
  if (urls.length > 0) {
    if (sources.length > 1) throw new UsageError(urls.length === sources.length ? 'one URL per crawl' : 'give one URL to crawl, or files, not both')
    if (options.url !== undefined) throw new UsageError('--url is for files: a crawled page links to its own URL')
    const body = Value.Default(KnowledgeCrawlBody, { url: urls[0], ...(options.maxPages === undefined ? {} : { max_pages: options.maxPages }) })
    if (!Value.Check(KnowledgeCrawlBody, body)) throw new UsageError(`a URL to crawl has at most ${knowledgeLimits.urlMaxChars} characters`)
    // The service's own check, so that what it would refuse (`https://`, a port over 65535) fails here
    // at once rather than as a failed task.
    const { isHttpUrl } = await import('@chatsearch/search/tools')
    if (!isHttpUrl(body.url)) throw new UsageError(`${body.url} is not a URL that parses, with a host`)
    return { type: 'crawl', payload: body }
  }
  if (options.maxPages !== undefined) throw new UsageError('--max-pages is for a crawl')
  if (options.url !== undefined) {
    const { isHttpUrl } = await import('@chatsearch/search/tools')
    if (!(isHttpUrl(options.url) && options.url.length <= knowledgeLimits.urlMaxChars)) {
      throw new UsageError(`--url must be an http or https URL that parses, with a host, of at most ${knowledgeLimits.urlMaxChars} characters`)
    }
  }
  const { filesWork } = await import('../knowledge-add.js')
  return await filesWork(sources, options.url)
}

export function knowledgeCommands (program: Command, { env, print }: CommandContext) {
  const knowledge = program.command('knowledge').description("add help files or a website to a project's knowledge; list and delete its documents")

  knowledge.command('add')
    .description('index files, or crawl a website, as a task that this process runs (a running search service may take it first); progress on stderr')
    .argument('<projectId>', 'the project')
    .argument('<sources...>', 'files (.md .markdown .txt .html .htm .pdf, at most ' +
      `${knowledgeLimits.filesMax}), or one http(s) URL to crawl (it stays on that origin)`)
    .option('--url <url>', 'files: where readers find the originals (http or https), cited with each chunk')
    .option('--max-pages <n>', `a crawl: pages fetched at most (${maxPages.minimum} to ${maxPages.maximum}, default ${maxPages.default})`, integer(maxPages.minimum, maxPages.maximum))
    .option('--no-wait', 'only queue the task and print its id; a search service, or `tasks <projectId> <taskId> --wait`, runs it')
    .action(async (projectId: string, sources: string[], options: AddOptions) => {
      const work = await workOf(sources, options)
      const { addKnowledge } = await import('../knowledge-add.js')
      const { searchSettings } = await import('../engine.js')
      if (!options.wait) {
        const task = await addKnowledge(env, searchSettings(env), projectId, work, { wait: false, progress: () => {} })
        print({ task_id: task.id }, `queued ${task.type} task ${task.id}; follow it with \`pnpm -s cli tasks ${projectId} ${task.id} --wait\``)
        return
      }
      printEnded(await withTaskBar((progress) => addKnowledge(env, searchSettings(env), projectId, work, { wait: true, progress })), print)
    })

  knowledge.command('list')
    .description("list a project's knowledge documents, by id")
    .argument('<projectId>', 'the project')
    .addOption(new Option('--kind <kind>', 'only documents of this kind').choices(KnowledgeKind.anyOf.map((k) => k.const)))
    .option('--limit <n>', `documents at most (up to ${knowledgeLimits.listLimitMax})`, integer(0, knowledgeLimits.listLimitMax), knowledgeLimits.listLimitDefault)
    .option('--offset <n>', 'documents to skip', integer(0, Number.MAX_SAFE_INTEGER), 0)
    .action(async (projectId: string, options: KnowledgePage) => {
      const { listKnowledge } = await import('../knowledge.js')
      const { searchSettings } = await import('../engine.js')
      const page = await listKnowledge(env, searchSettings(env), projectId, options)
      const lines = page.results.map((d) => `${d.id}  ${d.kind.padEnd(4)}  ${plural(d.chunks, 'chunk').padStart(10)}  ${d.title}${d.url === null ? '' : `  ${d.url}`}`)
      print(page, pageText(lines, page, 'document'))
    })

  knowledge.command('delete')
    .description('remove a knowledge document and its chunks')
    .argument('<projectId>', 'the project')
    .argument('<documentId>', 'the document (see knowledge list)')
    .action(async (projectId: string, documentId: string) => {
      const { deleteKnowledge } = await import('../knowledge.js')
      const { searchSettings } = await import('../engine.js')
      const deleted = await deleteKnowledge(env, searchSettings(env), projectId, documentId)
      print(deleted, `deleted ${documentId} from ${projectId}`)
    })
}
