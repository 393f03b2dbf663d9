import { Type, type Static, type TSchema } from 'typebox'

/**
 * Every error the API can answer, in one place (ARCHITECTURE.md decision 1): the stable `code` a
 * caller branches on, its HTTP status, and the `error` title sent with it (the spec's name where it
 * gives one). Both services raise errors only through this catalog, and the OpenAPI documents list
 * its codes.
 */
export const errorCatalog = {
  missing_parameters: { status: 400, title: 'Missing Parameters', when: 'a required field or query parameter is missing' },
  invalid_request: { status: 400, title: 'Bad Request', when: 'a field has the wrong type or value, the body is not valid JSON, or the request is malformed' },
  invalid_filter: { status: 400, title: 'Bad Request', when: 'the filter expression does not parse or names an attribute that is not filterable' },
  invalid_facet: { status: 400, title: 'Bad Request', when: 'a requested facet (`facets` of a search, `facet_name` of a facet search) is not a facetable attribute' },
  invalid_sort: { status: 400, title: 'Bad Request', when: 'a sort criterion is not `attribute:asc` or `attribute:desc`, or names an attribute that is not sortable' },
  invalid_document: { status: 400, title: 'Bad Request', when: 'a catalog item or knowledge document in the batch is not acceptable (nothing of the batch was written)' },
  invalid_file: { status: 400, title: 'Bad Request', when: 'a knowledge file is not what its name says, is not valid UTF-8 or UTF-16 text, has no text (a scanned PDF), or is nested or paged beyond what is read' },
  invalid_webhook_url: { status: 400, title: 'Bad Request', when: 'a webhook URL is not an absolute http(s) URL, carries credentials, or names (or resolves to) a loopback, private, link-local or other internal address while WEBHOOK_ALLOW_PRIVATE_NETWORKS is off' },
  hybrid_search_disabled: { status: 400, title: 'Bad Request', when: 'hybrid search was asked of a server that runs without embeddings' },
  unauthorized: { status: 401, title: 'Unauthorized', when: 'the credential is missing, malformed, unknown, revoked or for the other service; in the console, there is no live session (sign in first)' },
  invalid_consumer_token: { status: 401, title: 'Unauthorized', when: 'widget key: X-Consumer-Token was not issued by this service for this project (altered, or another project\'s); send none to be given a new one' },
  invalid_credentials: { status: 401, title: 'Unauthorized', when: 'console sign-in: the username or the password is wrong' },
  csrf_failed: { status: 403, title: 'Forbidden', when: 'console: a state-changing request without the session\'s X-CSRF-Token' },
  origin_not_allowed: { status: 403, title: 'Forbidden', when: 'widget key: the request has no Origin header, or its Origin is not one of the key\'s allowed origins' },
  invalid_consumer_hmac: { status: 403, title: 'Forbidden', when: 'widget key: X-Consumer-Hmac is not the HMAC-SHA256 of X-Consumer-Id under the project\'s identity secret, or only one of the two was sent' },
  owner_required: { status: 403, title: 'Forbidden', when: 'console: only an owner of the project may do this' },
  not_found: { status: 404, title: 'Not Found', when: 'no route has this path' },
  chat_not_found: { status: 404, title: 'Chat Not Found', when: 'the chat does not exist or belongs to another project' },
  message_not_found: { status: 404, title: 'Message Not Found', when: 'the chat has no assistant message with this msg_id (a customer\'s own message cannot be rated)' },
  document_not_found: { status: 404, title: 'Document Not Found', when: 'no catalog item (or, under /knowledge, no knowledge document) has this id in the project' },
  task_not_found: { status: 404, title: 'Task Not Found', when: 'no task has this id in the project' },
  webhook_not_found: { status: 404, title: 'Webhook Not Found', when: 'no webhook endpoint has this id in the project' },
  delivery_not_found: { status: 404, title: 'Delivery Not Found', when: 'the webhook endpoint has no delivery with this id' },
  query_not_found: { status: 404, title: 'Query Not Found', when: 'an event\'s query_id names no search of the project (searches made with the service token are not recorded, so theirs name none); nothing of the list was recorded' },
  project_not_found: { status: 404, title: 'Project Not Found', when: 'console: no project has this id, or the signed-in user is not a member of it' },
  user_not_found: { status: 404, title: 'User Not Found', when: 'console: no console user, or no member of the project, has this username' },
  credential_not_found: { status: 404, title: 'Credential Not Found', when: 'console: no credential has this id in the project' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed', when: 'the path exists but not with this method (see the Allow header)' },
  request_timeout: { status: 408, title: 'Request Timeout', when: 'the request\'s headers or body did not arrive in time' },
  member_exists: { status: 409, title: 'Conflict', when: 'console: the user is already a member of the project' },
  last_owner: { status: 409, title: 'Conflict', when: 'console: the change would leave the project without an owner' },
  task_finished: { status: 409, title: 'Conflict', when: 'the task to cancel already succeeded or failed' },
  idempotency_key_in_use: { status: 409, title: 'Conflict', when: 'a request with the same Idempotency-Key is still running' },
  payload_too_large: { status: 413, title: 'Payload Too Large', when: 'the body is larger than the endpoint accepts' },
  unsupported_media_type: { status: 415, title: 'Unsupported Media Type', when: 'the body is not sent as application/json (or NDJSON where accepted), or declares a charset other than UTF-8, or a Content-Encoding (bodies are read uncompressed)' },
  unsupported_file_type: { status: 415, title: 'Unsupported Media Type', when: 'a knowledge file is not .md, .markdown, .txt, .html, .htm or .pdf, or is compressed (gzip, zip)' },
  expectation_failed: { status: 417, title: 'Expectation Failed', when: 'the request has an Expect header other than 100-continue, the only expectation the server meets' },
  idempotency_key_reused: { status: 422, title: 'Unprocessable Entity', when: 'the Idempotency-Key was used before with a different request' },
  rate_limited: { status: 429, title: 'Too Many Requests', when: 'the credential sent more requests of this class than its per-minute limit (see Retry-After)' },
  authentication_throttled: { status: 429, title: 'Too Many Requests', when: 'too many failed authentications came from this client address (see Retry-After)' },
  too_many_tasks: { status: 429, title: 'Too Many Requests', when: 'the project already has as many tasks waiting to run as the server allows (TASKS_WAITING_MAX, 100 by default); send it again once some have started' },
  headers_too_large: { status: 431, title: 'Request Header Fields Too Large', when: 'the request headers are larger than the server accepts' },
  task_failed: { status: 500, title: 'Task Failed', when: 'in a task\'s `error` only: the task met a fault, or the replicas running it stopped too often (the message says which)' },
  internal_error: { status: 500, title: 'Internal Server Error', when: 'a fault on our side; it is logged, and the body holds no details' },
  not_implemented: { status: 501, title: 'Not Implemented', when: 'the search engine in use does not offer this feature (CONTAINS and STARTS WITH on a Meilisearch without containsFilter)' },
  service_unavailable: { status: 503, title: 'Service Unavailable', when: 'a backing store is unreachable or the instance is shutting down; retry shortly' },
  not_ready: { status: 503, title: 'Service Unavailable', when: 'GET /readyz only: a dependency of this instance did not answer (the body names each check)' }
} as const satisfies Record<string, { status: number, title: string, when: string }>

export type ErrorCode = keyof typeof errorCatalog
export const errorCodes = Object.keys(errorCatalog) as ErrorCode[]

/** A code as a plain string enum: serialised as a string, listed as an enum in OpenAPI. */
const codeSchema = (codes: readonly ErrorCode[]) => Type.Unsafe<ErrorCode>(Type.String({
  enum: [...codes],
  description: 'Stable snake_case code to branch on',
  examples: [codes[0]]
}))

/** The error body (ARCHITECTURE.md decision 1) whose `code` is one of `codes`. */
export const errorBodySchema = (codes: readonly ErrorCode[], description?: string) => Type.Object({
  statusCode: Type.Integer({ minimum: 400, maximum: 599, examples: [errorCatalog[codes[0]!].status] }),
  error: Type.String({ description: 'Name of the error, as the spec gives it where it gives one', examples: [errorCatalog[codes[0]!].title] }),
  code: codeSchema(codes),
  message: Type.String({ description: 'What went wrong and what to fix' })
}, { additionalProperties: false, ...(description === undefined ? {} : { description }) })

/** The one error body of every endpoint (ARCHITECTURE.md decision 1). */
export const ErrorBody = errorBodySchema(errorCodes)
export type ErrorBody = Static<typeof ErrorBody>

/** The body of an error answered with `code`: its status and title from the catalog; the title is the message unless one is given. */
export function errorBody<C extends ErrorCode> (code: C, message?: string): ErrorBody & { statusCode: typeof errorCatalog[C]['status'] } {
  const { status, title } = errorCatalog[code]
  return { statusCode: status, error: title, code, message: message ?? title }
}

/** What any route can answer with: a malformed request, a fault of ours, a store down or the instance shutting down. */
const everyRoute: ErrorCode[] = ['invalid_request', 'internal_error', 'service_unavailable']
/** What any route behind a credential can answer with besides (every such route counts against a rate limit). */
const authenticated: ErrorCode[] = ['unauthorized', 'authentication_throttled', 'rate_limited']

/** What a route whose method carries a body (POST, PUT, DELETE) can answer with besides, whether or not it wants one. */
export const bodyErrors = ['payload_too_large', 'unsupported_media_type'] as const satisfies readonly ErrorCode[]
/** What a route that honours Idempotency-Key can answer with besides. */
export const idempotencyErrors = ['idempotency_key_in_use', 'idempotency_key_reused'] as const satisfies readonly ErrorCode[]
/** What a route that takes a publishable widget key (decision 18) can answer with besides. */
export const widgetErrors = ['origin_not_allowed', 'invalid_consumer_token', 'invalid_consumer_hmac'] as const satisfies readonly ErrorCode[]

/**
 * What each operation of the chat service, by operationId, answers with besides what every route
 * behind a credential answers, a body's errors and Idempotency-Key's: the service documents its
 * routes with these, and the console its forwards to them.
 */
export const chatErrors = {
  newUserMessage: ['missing_parameters', 'chat_not_found'],
  readConversation: ['missing_parameters', 'chat_not_found'],
  listAllProjectChats: [],
  listAllProjectConsumerChats: ['missing_parameters'],
  latestConsumerChatId: ['missing_parameters'],
  feedback: ['missing_parameters', 'chat_not_found', 'message_not_found'],
  adminAnswerChat: ['missing_parameters', 'chat_not_found'],
  adminListChats: [],
  adminExportChats: ['missing_parameters'],
  adminReadChat: ['chat_not_found'],
  adminDeleteChat: ['chat_not_found'],
  adminChatAnalytics: [],
  adminListWebhooks: [],
  adminCreateWebhook: ['missing_parameters', 'invalid_webhook_url'],
  adminUpdateWebhook: ['invalid_webhook_url', 'webhook_not_found'],
  adminDeleteWebhook: ['webhook_not_found'],
  adminRotateWebhookSecret: ['webhook_not_found'],
  adminTestWebhook: ['webhook_not_found'],
  adminListWebhookDeliveries: ['webhook_not_found'],
  adminRetryWebhookDelivery: ['webhook_not_found', 'delivery_not_found']
} as const satisfies Record<string, readonly ErrorCode[]>

/** The same for each operation of the search service. */
export const searchErrors = {
  search: ['missing_parameters', 'invalid_filter', 'invalid_facet', 'invalid_sort', 'hybrid_search_disabled', 'not_implemented'],
  facetSearch: ['missing_parameters', 'invalid_filter', 'invalid_facet', 'hybrid_search_disabled', 'not_implemented'],
  autocomplete: ['missing_parameters'],
  listSuggestionCandidates: [],
  recordEvents: ['missing_parameters', 'query_not_found'],
  addOrReplaceDocuments: ['invalid_document', 'too_many_tasks'],
  getDocument: ['document_not_found'],
  deleteDocument: ['document_not_found'],
  getSettings: [],
  replaceSettings: ['missing_parameters'],
  getRules: [],
  replaceRules: ['missing_parameters'],
  addOrReplaceKnowledgeDocuments: ['invalid_document'],
  listKnowledgeDocuments: [],
  getKnowledgeDocument: ['document_not_found'],
  deleteKnowledgeDocument: ['document_not_found'],
  crawlWebsite: ['missing_parameters', 'too_many_tasks'],
  uploadKnowledgeFiles: ['missing_parameters', 'invalid_file', 'unsupported_file_type', 'too_many_tasks'],
  searchKnowledge: ['missing_parameters', 'hybrid_search_disabled'],
  listTasks: [],
  getTask: ['task_not_found'],
  cancelTask: ['task_not_found', 'task_finished'],
  adminSearchAnalytics: []
} as const satisfies Record<string, readonly ErrorCode[]>

/** The codes as response schemas, one entry per status whose `code` enum lists only that status's codes, described by when each occurs. */
function responsesOf (codes: readonly ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of new Set(codes)) {
    const status = errorCatalog[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const responses: Record<number, TSchema> = {}
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = errorBodySchema(list, list.map((code) => `\`${code}\`: ${errorCatalog[code].when}`).join('; '))
  }
  return responses
}

/** Error responses of a route behind a credential: what every such route answers, plus `codes`. */
export function errorResponses (...codes: ErrorCode[]): Record<number, TSchema> {
  return responsesOf([...everyRoute, ...authenticated, ...codes])
}

/**
 * Error responses of a console route behind the session cookie: what every route answers, 401
 * without a live session, plus `codes`. The console counts no requests against a rate limit (the
 * sign-in is throttled instead); a forward lists what the service it forwards to can answer.
 */
export function sessionErrorResponses (...codes: ErrorCode[]): Record<number, TSchema> {
  return responsesOf([...everyRoute, 'unauthorized', ...codes])
}

/** Error responses of a route that needs no credential (health checks): what every route answers, plus `codes`. */
export function publicErrorResponses (...codes: ErrorCode[]): Record<number, TSchema> {
  return responsesOf([...everyRoute, ...codes])
}
