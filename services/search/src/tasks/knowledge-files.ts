import { createHash } from 'node:crypto'
import { knowledgeLimits } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import type { IncomingKnowledge } from '../engine/port.js'
import { DocumentError } from '../ingest/validate.js'
import { storeKnowledge } from '../knowledge/ingest.js'
import { FileRejected, type UploadedFile } from '../knowledge/parse/index.js'
import { FILE_THREAD_DEFAULTS, parseFileOnThread, type FileThreadLimits } from '../knowledge/parse/file-thread.js'
import type { Chunk, ParsedPage } from '../knowledge/types.js'
import type { TaskHandler } from './queue.js'
import type { KnowledgeWriter } from './knowledge-crawl.js'

/** What POST /knowledge/files hands to its task: the files (already checked) and the `url` field. */
export interface FilesPayload {
  url?: string
  files: UploadedFile[]
}

interface Header { url?: string, files: Array<{ name: string, type?: string, size: number }> }

/**
 * The payload as bytes, kept in the task's row: a 4-byte length, a JSON header naming the files, then
 * their bytes one after the other (base64 in JSON would add a third to uploads of up to 64 MiB).
 */
export function encodeFiles (payload: FilesPayload): Buffer {
  const header: Header = {
    ...(payload.url === undefined ? {} : { url: payload.url }),
    files: payload.files.map((f) => ({ name: f.name, ...(f.declaredType === undefined ? {} : { type: f.declaredType }), size: f.bytes.byteLength }))
  }
  const json = Buffer.from(JSON.stringify(header))
  const length = Buffer.alloc(4)
  length.writeUInt32BE(json.byteLength)
  return Buffer.concat([length, json, ...payload.files.map((f) => f.bytes)])
}

export function decodeFiles (bytes: Buffer): FilesPayload {
  const length = bytes.readUInt32BE(0)
  const header = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as Header
  let offset = 4 + length
  const files = header.files.map((f) => {
    const file: UploadedFile = { name: f.name, bytes: bytes.subarray(offset, offset + f.size), ...(f.type === undefined ? {} : { declaredType: f.type }) }
    offset += f.size
    return header.url === undefined ? file : { ...file, url: header.url }
  })
  return { ...(header.url === undefined ? {} : { url: header.url }), files }
}

/**
 * A file's document id: `file-<name>-<digest>`, the name made of the id's characters for people to
 * recognise, the digest of the exact name so that two names alike after that stay apart. Uploading a
 * file of the same name again replaces it.
 */
export function fileDocumentId (name: string): string {
  const readable = name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80)
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 8)
  return readable === '' ? `file-${digest}` : `file-${readable}-${digest}`
}

/** A parsed file's text for reading (GET /knowledge/documents/:id): its headings as Markdown, then its blocks. */
export function textOf (page: ParsedPage): string {
  const lines: string[] = []
  let path: string[] = []
  for (const block of page.blocks) {
    const same = path.findIndex((heading, i) => block.path[i] !== heading)
    const kept = same === -1 ? Math.min(path.length, block.path.length) : same
    for (let depth = kept; depth < block.path.length; depth++) lines.push(`${'#'.repeat(Math.min(depth + 1, 6))} ${block.path[depth]}`)
    path = block.path
    lines.push(block.text)
  }
  return lines.join('\n\n')
}

function documentOf (file: UploadedFile, { page, chunks }: { page: ParsedPage, chunks: Chunk[] }): IncomingKnowledge {
  return {
    id: fileDocumentId(file.name),
    kind: 'file',
    title: page.title.slice(0, knowledgeLimits.titleMaxChars),
    content: textOf(page),
    ...(file.url === undefined ? {} : { url: file.url }),
    chunks
  }
}

/**
 * Indexes uploaded files (spec/knowledge.md), one after the other: each parsed on a thread of its own
 * (bounded in time and memory), chunked along its headings, stored. A file that cannot be read is
 * skipped with its reason in `details`; the task fails only when no file could be indexed. Run again
 * after a replica died, it stores the same files under the same ids: unchanged ones are not embedded
 * again.
 */
export function knowledgeFiles (app: KnowledgeWriter, limits: FileThreadLimits = FILE_THREAD_DEFAULTS): TaskHandler {
  return async ({ projectId, payload, progress, details, signal }) => {
    const { files } = decodeFiles(payload as Buffer)
    const index = await app.engine.knowledge(projectId)
    const counts = { files: files.length, indexed: 0, unchanged: 0 }
    const skipped: Array<{ file: string, reason: string }> = []
    const indexed: Array<{ file: string, id: string, chunks: number }> = []
    await progress(0, files.length)
    for (const [done, file] of files.entries()) {
      signal.throwIfAborted()
      try {
        const document = documentOf(file, await parseFileOnThread(file, limits))
        const result = await storeKnowledge(index, [document], app.embedder)
        counts.indexed += result.indexed
        counts.unchanged += result.unchanged
        indexed.push({ file: file.name, id: document.id, chunks: (await index.get(document.id))?.chunks.length ?? 0 })
      } catch (err) {
        if (err instanceof FileRejected) skipped.push({ file: file.name, reason: err.reason })
        else if (err instanceof DocumentError) skipped.push({ file: file.name, reason: 'no text to index' })
        else throw err
      }
      await progress(done + 1, files.length)
      await details({ ...counts, documents: indexed, skipped })
    }
    if (indexed.length === 0) {
      const first = skipped[0]!
      throw new ApiError('invalid_file', files.length === 1 ? first.reason : `none of the ${files.length} files could be indexed; ${first.file}: ${first.reason}`)
    }
  }
}
