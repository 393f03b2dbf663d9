import { answerOnThread, type ThreadLimits } from '../../one-shot-thread.js'
import { threadEntry } from '../../thread-entry.js'
import type { Chunk, ParsedPage } from '../types.js'
import { FileRejected, type RejectionCode } from './file-rejected.js'
import type { FileFormat, UploadedFile } from './file.js'

/** A document sent as text (Markdown, HTML or plain), to be parsed and chunked; `name` says which in a refusal. */
export interface SourceDocument { name: string, format: Exclude<FileFormat, 'pdf'>, content: string, title: string, url?: string }

/** What a parsing thread is given: an uploaded file to parse, or documents sent as text to parse and chunk. */
export type ParseJob = { file: UploadedFile } | { sources: SourceDocument[] }

/** What a parsing thread answers: the file's page and its chunks, or each document's chunks in order. */
export type FileAnswer = { page: ParsedPage, chunks: Chunk[] } | { chunks: Chunk[][] } | { rejected: { code: RejectionCode, reason: string } } | { error: string }

export type FileThreadLimits = ThreadLimits

export const FILE_THREAD_DEFAULTS: FileThreadLimits = { timeoutMs: 60_000, maxHeapMb: 512 }

/**
 * Parses an uploaded file (parseFile) and chunks it on a thread of its own, bounded in time and
 * memory: a hostile file (a PDF built to loop, HTML that expands, megabytes of text to chunk) costs
 * that thread, which is stopped, never the service or the other tasks. A file it cannot parse within
 * the limits is a FileRejected saying which limit.
 */
export async function parseFileOnThread (file: UploadedFile, limits: FileThreadLimits = FILE_THREAD_DEFAULTS): Promise<{ page: ParsedPage, chunks: Chunk[] }> {
  const answer = await onThread({ file }, file.name, limits)
  if (!('page' in answer)) throw new Error(`parsing ${file.name}: the thread answered no page`)
  return answer
}

/**
 * The chunks of documents sent as text, each in order, parsed and chunked on one thread of its own
 * with the same bounds, for all of them together: a large or hostile page (a Markdown table of 50,000
 * columns takes seconds) holds that thread, not the event loop that serves every project's searches.
 * A refusal names the document (or, for the thread's limits, the documents).
 */
export async function chunkSourcesOnThread (sources: SourceDocument[], limits: FileThreadLimits = FILE_THREAD_DEFAULTS): Promise<Chunk[][]> {
  const name = sources.length === 1 ? sources[0]!.name : `${sources[0]?.name ?? 'no document'} and ${sources.length - 1} more`
  const answer = await onThread({ sources }, name, limits)
  if ('page' in answer) throw new Error(`parsing ${name}: the thread answered a file's page`)
  return answer.chunks
}

async function onThread (job: ParseJob, name: string, limits: FileThreadLimits): Promise<Exclude<FileAnswer, { rejected: unknown } | { error: string }>> {
  const answer = await answerOnThread<FileAnswer>(threadEntry(import.meta.url, 'file-worker'), {
    // Inside, pdf.js checks its own (shorter) deadline between pages and says so more precisely.
    job, pdfTimeoutMs: Math.max(1, limits.timeoutMs - 1000)
  }, limits, {
    timeout: () => new FileRejected('invalid_file', `${name} took longer than ${limits.timeoutMs / 1000} s to read`),
    outOfMemory: () => new FileRejected('invalid_file', `${name} needs more than ${limits.maxHeapMb} MiB of memory to read`),
    stopped: (code) => new Error(`parsing ${name}: the thread stopped (exit code ${code})`)
  })
  if ('rejected' in answer) throw new FileRejected(answer.rejected.code, answer.rejected.reason)
  if ('error' in answer) throw new Error(`parsing ${name}: ${answer.error}`)
  return answer
}
