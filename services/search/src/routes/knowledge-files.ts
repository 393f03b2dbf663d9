import type { FastifyInstance } from 'fastify'
import multipart from '@fastify/multipart'
import { bodyErrors, errorResponses, knowledgeLimits, searchErrors, KnowledgeFilesBody, TaskAccepted } from '@chatsearch/contracts'
import { ApiError, textProblem } from '@chatsearch/shell'
import { checkFile, type UploadedFile } from '../knowledge/parse/index.js'
import { encodeFiles } from '../tasks/knowledge-files.js'
import { isHttpUrl } from '../knowledge/http-url.js'

const MiB = 1024 * 1024
const FILE_NAME_MAX = 255

/** @fastify/multipart's limit errors, in our words. */
const limitMessages: Record<string, string> = {
  FST_REQ_FILE_TOO_LARGE: `a file is larger than the ${knowledgeLimits.fileBytesMax / MiB} MiB accepted per file`,
  FST_FILES_LIMIT: `at most ${knowledgeLimits.filesMax} files are accepted per upload`,
  FST_PARTS_LIMIT: `at most ${knowledgeLimits.filesMax} files and a url field are accepted per upload`,
  FST_FIELDS_LIMIT: 'the only field besides the files is url'
}

/** A fault while the parts stream in is the client's: a body cut short or not multipart as it says. */
function uploadError (err: unknown): unknown {
  if (err instanceof ApiError) return err
  const { code, statusCode } = err as { code?: string, statusCode?: number }
  if (code !== undefined && code in limitMessages) return new ApiError('payload_too_large', limitMessages[code]!)
  if (statusCode === undefined || statusCode < 500) return new ApiError('invalid_request', `the multipart body cannot be read: ${(err as Error).message}`)
  return err
}

/**
 * What the multipart parser puts where a file name's or field's bytes are not UTF-8 (it decodes them
 * with replacement): refused, as a JSON body's bytes are, rather than stored as part of a title, an
 * id or a URL. No file name or URL holds it of its own.
 */
const REPLACEMENT = '\ufffd'
const NOT_UTF8 = 'must be UTF-8: it holds bytes that are no character (decoded as U+FFFD)'

/**
 * POST /knowledge/files (spec/knowledge.md): files uploaded as multipart/form-data are checked as they
 * arrive (name, type, size, encoding: cheap checks), then handed whole to a `files` task that parses
 * and indexes them. A bad file refuses the upload, nothing queued.
 */
export async function knowledgeFileRoutes (app: FastifyInstance) {
  await app.register(multipart, {
    limits: {
      fileSize: knowledgeLimits.fileBytesMax,
      files: knowledgeLimits.filesMax,
      fields: 1,
      parts: knowledgeLimits.filesMax + 1,
      fieldSize: knowledgeLimits.urlMaxChars,
      fieldNameSize: 100,
      headerPairs: 100
    }
  })

  app.post('/knowledge/files', {
    config: { rateLimit: 'catalog' },
    // The parts stream: the route reads and checks them itself. The schema is what the API documents.
    validatorCompiler: () => () => true,
    schema: {
      operationId: 'uploadKnowledgeFiles',
      tags: ['knowledge'],
      summary: 'Upload help files (Markdown, HTML, text, PDF) into the project\'s knowledge, as a task',
      description: 'Answers 202 with a `files` task (see GET /tasks/{id}) that parses each file on a thread of its own, bounded in time and memory, and indexes it as a `file` document whose id comes from the file name (`file-<name>-<digest>`): uploading a file of the same name again replaces it, and an unchanged file is not embedded again. The upload is refused whole (nothing queued) when a file is not a type that is read (415 unsupported_file_type), is not what its name says or not valid text (400 invalid_file), or is too large (413); a file that turns out unreadable while parsed (a PDF without text) is skipped with its reason in the task\'s `details`, and the task fails when no file could be indexed. A retry uploads again (no Idempotency-Key: the ids make a repeat harmless).',
      consumes: ['multipart/form-data'],
      body: KnowledgeFilesBody,
      response: { 202: TaskAccepted, ...errorResponses(...bodyErrors, ...searchErrors.uploadKnowledgeFiles) }
    }
  }, async (request, reply) => {
    if (!request.isMultipart()) {
      throw new ApiError('unsupported_media_type', 'send the files as multipart/form-data: one part named "file" per file, and an optional "url" field')
    }
    const files: UploadedFile[] = []
    let url: string | undefined
    let total = 0
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.fieldname !== 'url') throw new ApiError('invalid_request', `unknown field "${part.fieldname}": send parts named "file" and an optional "url" field`)
          const value = part.value
          if (typeof value === 'string' && value.includes(REPLACEMENT)) throw new ApiError('invalid_request', `url: ${NOT_UTF8}`)
          if (typeof value !== 'string' || part.valueTruncated || !isHttpUrl(value)) {
            throw new ApiError('invalid_request', `url must be an http or https URL of at most ${knowledgeLimits.urlMaxChars} characters`)
          }
          url = value
          continue
        }
        if (part.fieldname !== 'file') throw new ApiError('invalid_request', `unknown file part "${part.fieldname}": name each file part "file"`)
        const name = part.filename
        if (name === '' || name.length > FILE_NAME_MAX) throw new ApiError('invalid_request', `each file part needs a file name of 1 to ${FILE_NAME_MAX} characters (its extension says how to read it)`)
        // Multipart fields skip the JSON checks: the name becomes the document's title and id.
        const nameProblem = name.includes(REPLACEMENT) ? NOT_UTF8 : textProblem(name)
        if (nameProblem !== undefined) throw new ApiError('invalid_request', `file name: ${nameProblem}`)
        if (files.some((f) => f.name === name)) throw new ApiError('invalid_request', `two files are named ${name}; one would replace the other`)
        const bytes = await part.toBuffer()
        total += bytes.byteLength
        if (total > knowledgeLimits.filesTotalBytesMax) throw new ApiError('payload_too_large', `the files are larger than the ${knowledgeLimits.filesTotalBytesMax / MiB} MiB accepted per upload together`)
        const file: UploadedFile = { name, bytes, declaredType: part.mimetype }
        checkFile(file, knowledgeLimits.fileBytesMax)
        files.push(file)
      }
    } catch (err) {
      throw uploadError(err)
    }
    if (files.length === 0) throw new ApiError('missing_parameters', 'no file: send each file as a multipart part named "file", with its file name')
    const task = await app.tasks.enqueue(request.principal.projectId, 'files', encodeFiles({ ...(url === undefined ? {} : { url }), files }))
    return await reply.code(202).send({ task_id: task.id })
  })
}
