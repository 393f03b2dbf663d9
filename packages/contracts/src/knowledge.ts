import { Type, type Static } from 'typebox'
import { DOCUMENT_ID_PATTERN } from './catalog.js'
import { limits } from './limits.js'
import { timestampOf } from './timestamp.js'

/** Limits of knowledge documents and their search (spec/knowledge.md). */
export const knowledgeLimits = {
  titleMaxChars: 1000,
  /** A page's content: a long manual fits, a whole site in one document does not. */
  contentMaxChars: 2_000_000,
  questionMaxChars: 1000,
  answerMaxChars: 20_000,
  urlMaxChars: 2048,
  /** Files in one `POST /knowledge/files`. */
  filesMax: 20,
  /** One uploaded file. */
  fileBytesMax: 20 * 1024 * 1024,
  /** All the files of one upload together. */
  filesTotalBytesMax: 64 * 1024 * 1024,
  searchLimitDefault: 5,
  searchLimitMax: 50,
  listLimitDefault: 20,
  listLimitMax: 1000,
  /** The weight of the semantic side of a hybrid knowledge search. */
  semanticRatioDefault: 0.5
} as const

export const KnowledgeKind = Type.Union([Type.Literal('page'), Type.Literal('file'), Type.Literal('web'), Type.Literal('faq')], {
  description: '`page`: sent as JSON; `file`: uploaded; `web`: crawled; `faq`: a question-and-answer pair'
})
export type KnowledgeKind = Static<typeof KnowledgeKind>

const DocumentId = Type.Union([Type.String({ pattern: DOCUMENT_ID_PATTERN }), Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })], {
  description: 'Letters, digits, `-` and `_` (1 to 511), or a non-negative integer, as catalog item ids'
})
const Url = Type.String({ maxLength: knowledgeLimits.urlMaxChars, pattern: '^https?://', description: 'Where readers find the original (http or https)' })
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

/** A page of text in `POST /knowledge/documents`. */
export const KnowledgePageInput = Type.Object({
  id: DocumentId,
  title: Type.String({ minLength: 1, maxLength: knowledgeLimits.titleMaxChars }),
  content: Type.String({ minLength: 1, maxLength: knowledgeLimits.contentMaxChars }),
  format: Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('html'), Type.Literal('text')], { default: 'markdown' })),
  url: Type.Optional(Url)
}, { additionalProperties: false })
export type KnowledgePageInput = Static<typeof KnowledgePageInput>

/** A question-and-answer pair in `POST /knowledge/documents`. */
export const KnowledgeFaqInput = Type.Object({
  id: DocumentId,
  question: Type.String({ minLength: 1, maxLength: knowledgeLimits.questionMaxChars }),
  answer: Type.String({ minLength: 1, maxLength: knowledgeLimits.answerMaxChars }),
  url: Type.Optional(Url)
}, { additionalProperties: false })
export type KnowledgeFaqInput = Static<typeof KnowledgeFaqInput>

/**
 * The body of `POST /knowledge/documents`. Declared as an array of anything so that a bad document is
 * answered with its position and field (400 invalid_document) rather than a schema error path; the
 * documents' shapes are KnowledgePageInput and KnowledgeFaqInput.
 */
export const KnowledgeDocumentsBody = Type.Array(Type.Unknown(), {
  description: 'Pages `{id, title, content, format?, url?}` and question-and-answer pairs `{id, question, answer, url?}` to add or replace by id; also accepted as NDJSON (application/x-ndjson)'
})

export const KnowledgeChunk = Type.Object({
  id: Type.String({ description: 'The chunk\'s position in its document; cited as `<document id>#<chunk id>`' }),
  section: Type.String({ description: 'The heading path, joined with \' › \' (empty before the first heading)' }),
  text: Type.String(),
  url: Nullable(Type.String({ description: 'The document\'s URL with the nearest anchor as fragment' }))
}, { additionalProperties: false })
export type KnowledgeChunk = Static<typeof KnowledgeChunk>

const UpdatedAt = timestampOf('When the document was last written (ISO 8601 UTC)')

export const KnowledgeDocument = Type.Object({
  id: Type.String(),
  kind: KnowledgeKind,
  title: Type.String({ description: 'A page\'s title, or a pair\'s question' }),
  url: Nullable(Type.String()),
  content: Type.String({ description: 'The content as sent, or a pair\'s answer' }),
  chunks: Type.Array(KnowledgeChunk),
  updated_at: UpdatedAt
}, { additionalProperties: false })
export type KnowledgeDocument = Static<typeof KnowledgeDocument>

export const KnowledgeSummary = Type.Object({
  id: Type.String(),
  kind: KnowledgeKind,
  title: Type.String(),
  url: Nullable(Type.String()),
  chunks: Type.Integer({ minimum: 0, description: 'How many chunks the document was split into' }),
  updated_at: UpdatedAt
}, { additionalProperties: false })
export type KnowledgeSummary = Static<typeof KnowledgeSummary>

/** A whole number in a query string (query strings are not coerced to numbers: see the service shell). */
export const KnowledgeListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: knowledgeLimits.listLimitMax, default: knowledgeLimits.listLimitDefault, description: 'How many documents' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: 'How many documents to skip' })),
  kind: Type.Optional(KnowledgeKind)
}, { additionalProperties: false })
export type KnowledgeListQuery = Static<typeof KnowledgeListQuery>

export const KnowledgeListResponse = Type.Object({
  results: Type.Array(KnowledgeSummary, { description: 'Ordered by id' }),
  total: Type.Integer({ minimum: 0, description: 'Documents (of `kind`, when given) in the project' }),
  limit: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 })
}, { additionalProperties: false })
export type KnowledgeListResponse = Static<typeof KnowledgeListResponse>

export const KnowledgeSearchBody = Type.Object({
  query: Type.String({ maxLength: limits.termMaxChars, description: 'A question or keywords; one without a word finds nothing' }),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: knowledgeLimits.searchLimitMax, default: knowledgeLimits.searchLimitDefault })),
  search_type: Type.Optional(Type.Union([Type.Literal('keyword'), Type.Literal('hybrid')], {
    description: 'Extension: `hybrid` (keyword and semantic) by default when the server has embeddings, else `keyword`; asking for `hybrid` of a server without embeddings is refused'
  })),
  semantic_ratio: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: knowledgeLimits.semanticRatioDefault, description: 'Extension: the weight of the semantic side in hybrid search' }))
}, { additionalProperties: false })
export type KnowledgeSearchBody = Static<typeof KnowledgeSearchBody>

export const KnowledgeHit = Type.Object({
  document_id: Type.String(),
  chunk_id: Type.String(),
  kind: KnowledgeKind,
  title: Type.String(),
  section: Type.String(),
  url: Nullable(Type.String({ description: 'The chunk\'s URL (with its anchor), when the document has one' })),
  text: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 1, description: 'Relevance in [0, 1]; hits come best first' })
}, { additionalProperties: false })
export type KnowledgeHit = Static<typeof KnowledgeHit>

export const KnowledgeSearchResponse = Type.Object({
  hits: Type.Array(KnowledgeHit),
  query: Type.String({ description: 'The processed query that was executed' }),
  processingTimeMs: Type.Integer({ minimum: 0 })
}, { additionalProperties: false })
export type KnowledgeSearchResponse = Static<typeof KnowledgeSearchResponse>

export const KnowledgeCrawlBody = Type.Object({
  url: Type.String({ maxLength: knowledgeLimits.urlMaxChars, pattern: '^https?://', description: 'Where the crawl starts; it stays on this URL\'s origin (scheme, host and port)' }),
  max_pages: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 200, description: 'Pages fetched at most, whatever comes of them' }))
}, { additionalProperties: false })
export type KnowledgeCrawlBody = Static<typeof KnowledgeCrawlBody>

/**
 * The parts of `POST /knowledge/files` (multipart/form-data), for the API's description: the route
 * reads the parts as they stream and checks them itself (type, size, encoding), with these limits.
 */
export const KnowledgeFilesBody = Type.Object({
  file: Type.Array(Type.String({ format: 'binary' }), {
    minItems: 1,
    maxItems: knowledgeLimits.filesMax,
    description: `One part per file, each with its file name: .md, .markdown, .txt, .html, .htm or .pdf, at most ${knowledgeLimits.fileBytesMax / 1024 / 1024} MiB each and ${knowledgeLimits.filesTotalBytesMax / 1024 / 1024} MiB together. Text is UTF-8 or UTF-16 with a byte order mark; compressed files are refused.`
  }),
  url: Type.Optional(Type.String({ maxLength: knowledgeLimits.urlMaxChars, pattern: '^https?://', description: 'Where readers find the originals (http or https); cited with each chunk\'s anchor' }))
})
