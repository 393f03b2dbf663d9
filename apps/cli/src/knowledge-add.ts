import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { knowledgeLimits, type KnowledgeCrawlBody, type Task } from '@chatsearch/contracts'
import { checkFile, encodeFiles, FileRejected, type UploadedFile } from '@chatsearch/search/tasks'
import type { SearchConfig } from '@chatsearch/search/tools'
import { CommandError } from './errors.js'
import { interruptible, untilEnd, withReplica, type TaskProgress } from './replica.js'

/** What `knowledge add` queues: the payload each task type gets from its HTTP route. */
export type KnowledgeWork = { type: 'crawl', payload: KnowledgeCrawlBody } | { type: 'files', payload: Buffer }

const MiB = 1024 * 1024

const refused = (message: string) => new CommandError(`${message}; nothing was queued`)

/** checkFile's reason about a file named `name`, told about the path the user gave. */
const aboutPath = (path: string, name: string, reason: string) => reason.startsWith(name) ? path + reason.slice(name.length) : `${path}: ${reason}`

async function readBytes (path: string): Promise<Buffer> {
  let size: number
  try {
    const stats = await stat(path)
    if (!stats.isFile()) throw refused(`${path} is not a file`)
    size = stats.size
  } catch (err) {
    if (err instanceof CommandError) throw err
    throw refused((err as NodeJS.ErrnoException).code === 'ENOENT' ? `${path}: no such file` : `${path}: ${(err as Error).message}`)
  }
  // Refused before it is read: a file given by mistake may be huge.
  if (size > knowledgeLimits.fileBytesMax) throw refused(`${path} is ${(size / MiB).toFixed(1)} MiB, more than the ${knowledgeLimits.fileBytesMax / MiB} MiB accepted per file`)
  try {
    return await readFile(path)
  } catch (err) {
    throw refused(`${path}: ${(err as Error).message}`)
  }
}

/**
 * The files as a `files` task's payload, checked as POST /knowledge/files checks an upload (type,
 * size, encoding, names): a bad file stops the command before anything is queued.
 */
export async function filesWork (paths: string[], url: string | undefined): Promise<KnowledgeWork> {
  if (paths.length > knowledgeLimits.filesMax) {
    throw refused(`at most ${knowledgeLimits.filesMax} files are added at once (got ${paths.length}); add them in several commands`)
  }
  const files: UploadedFile[] = []
  const pathOf = new Map<string, string>()
  let total = 0
  for (const path of paths) {
    // The document id comes from the file's name: two files of one name would replace each other.
    const name = basename(path)
    const other = pathOf.get(name)
    if (other !== undefined) throw refused(`${other} and ${path} are both named ${name}: one would replace the other`)
    pathOf.set(name, path)
    const file: UploadedFile = { name, bytes: await readBytes(path) }
    total += file.bytes.byteLength
    if (total > knowledgeLimits.filesTotalBytesMax) {
      throw refused(`the files are larger than the ${knowledgeLimits.filesTotalBytesMax / MiB} MiB accepted together; add them in several commands`)
    }
    try {
      checkFile(file, knowledgeLimits.fileBytesMax)
    } catch (err) {
      if (err instanceof FileRejected) throw refused(aboutPath(path, name, err.reason))
      throw err
    }
    files.push(file)
  }
  return { type: 'files', payload: encodeFiles({ ...(url === undefined ? {} : { url }), files }) }
}

/**
 * Queues the work as its HTTP route does. With `wait`, this process runs it as one more replica (a
 * running search service may take it first) and follows it to its end; Ctrl-C hands it back whole.
 */
export async function addKnowledge (env: NodeJS.ProcessEnv, config: SearchConfig, projectId: string, work: KnowledgeWork, { wait, progress }: { wait: boolean, progress: TaskProgress }): Promise<Task> {
  return await withReplica(env, config, projectId, async (replica) => {
    if (!wait) return await replica.queue.enqueue(projectId, work.type, work.payload)
    await replica.run(work.type)
    return await interruptible(async (signal) => {
      const task = await replica.queue.enqueue(projectId, work.type, work.payload)
      process.stderr.write(`queued ${work.type} task ${task.id}\n`)
      return await untilEnd(replica, projectId, task.id, progress, signal)
    })
  })
}
