import {
  MeilisearchApiError,
  MeilisearchRequestTimeOutError,
  MeilisearchTaskTimeOutError,
  type MeilisearchErrorResponse,
  type Task
} from 'meilisearch'
import type { ErrorCode } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'

/**
 * Meilisearch error codes caused by the content of a catalog item. Each code here and below is one
 * Meilisearch sends (its OpenAPI document lists them; the contract test checks).
 */
export const DOCUMENT_CODES: ReadonlySet<string> = new Set([
  'invalid_document_id', 'missing_document_id', 'invalid_document_fields', 'invalid_document_geo_field',
  'invalid_document_geojson_field', 'max_fields_limit_exceeded', 'malformed_payload', 'missing_payload'
])

/**
 * Meilisearch error codes that say the engine itself is in trouble, that the adapter and the index
 * disagree (vectors and embedders are the adapter's, never the caller's), or that an operator changed
 * what the adapter relies on: nothing the caller can fix.
 */
export const ENGINE_CODES: ReadonlySet<string> = new Set([
  'internal', 'io_error', 'no_space_left_on_device', 'database_size_limit_reached', 'too_many_open_files',
  'index_creation_failed', 'invalid_state', 'too_many_search_requests', 'unretrievable_document',
  'invalid_api_key', 'missing_authorization_header', 'missing_master_key',
  'task_not_found', 'dump_process_failed', 'invalid_vector_dimensions', 'invalid_vectors_type',
  'invalid_settings_embedders', 'invalid_search_embedder', 'vector_embedding_error', 'index_not_found',
  // Every matching strategy the API takes is one Meilisearch takes, and a facet search always names its facet.
  'invalid_search_matching_strategy', 'missing_facet_search_facet_name',
  // Facet search is on by default in v1.53 (`facetSearch: true`, not sent by the adapter): only an operator turns it off.
  'facet_search_disabled'
])

/**
 * Meilisearch error codes about what the caller sent, each as our 400 for the same mistake, with
 * Meilisearch's explanation. Filters, facets, sorts and word settings are checked by us first, so
 * Meilisearch refusing one means the two disagree: the caller still gets the 400 the embedded engine
 * would give (settings have no code of their own: `invalid_request`, as PUT /settings answers).
 */
export const REQUEST_CODES: ReadonlyMap<string, ErrorCode> = new Map([
  ['invalid_search_filter', 'invalid_filter'], ['invalid_document_filter', 'invalid_filter'],
  ['invalid_search_facets', 'invalid_facet'], ['invalid_facet_search_facet_name', 'invalid_facet'],
  ['invalid_search_sort', 'invalid_sort'],
  ['invalid_settings_sortable_attributes', 'invalid_request'], ['invalid_settings_synonyms', 'invalid_request'], ['invalid_settings_stop_words', 'invalid_request']
])

const UNAVAILABLE = 'the search engine is unavailable, try again shortly'

/** Keeps the engine's own error for the log (the error handler logs 5xx with their cause). */
function withCause (error: ApiError, cause: unknown): ApiError {
  error.cause = cause
  return error
}

/** Our error for a Meilisearch error body `{ code, message }` (from a response or a failed task). */
export function fromMeilisearchBody (body: MeilisearchErrorResponse | null | undefined, status?: number): ApiError {
  const code = body?.code ?? ''
  const message = body?.message ?? ''
  const ours = REQUEST_CODES.get(code)
  if (ours !== undefined) return new ApiError(ours, message)
  if (code === 'feature_not_enabled') {
    // Only CONTAINS and STARTS WITH need an experimental feature (containsFilter), which the engine
    // switches on when it starts; this happens when its API key may not do that.
    return new ApiError('not_implemented', 'CONTAINS and STARTS WITH are not available on this server: its Meilisearch has the containsFilter experimental feature switched off')
  }
  if (code === 'payload_too_large') return new ApiError('payload_too_large', 'the batch is too large for the search engine; send fewer items at a time')
  if (DOCUMENT_CODES.has(code)) return new ApiError('invalid_document', message)
  if (ENGINE_CODES.has(code) || status === undefined || status >= 500 || status === 401 || status === 403) {
    return new ApiError('service_unavailable', UNAVAILABLE)
  }
  return new ApiError('invalid_request', `the search engine refused the request: ${message}`)
}

/** Any failure of a Meilisearch call as the ApiError the service answers with. */
export function fromMeilisearchError (err: unknown, taskTimeoutMs?: number): ApiError {
  if (err instanceof ApiError) return err
  if (err instanceof MeilisearchApiError) return withCause(fromMeilisearchBody(err.cause, err.response.status), err)
  if (err instanceof MeilisearchTaskTimeOutError) {
    const within = taskTimeoutMs === undefined ? '' : ` within ${taskTimeoutMs} ms`
    return withCause(new ApiError('service_unavailable', `the search engine did not finish the write${within}; it may still be applied, try again shortly`), err)
  }
  if (err instanceof MeilisearchRequestTimeOutError) return withCause(new ApiError('service_unavailable', 'the search engine did not answer in time, try again shortly'), err)
  // unreachable (MeilisearchRequestError) or anything else
  return withCause(new ApiError('service_unavailable', UNAVAILABLE), err)
}

/** The error of a task that ended without succeeding. */
export function fromFailedTask (task: Task): ApiError {
  if (task.status === 'failed') return withCause(fromMeilisearchBody(task.error, 400), task.error)
  return new ApiError('service_unavailable', `the search engine did not apply the write (task ${task.status})`)
}

/** Whether `err` is Meilisearch answering with this error code. */
export function hasCode (err: unknown, code: string): boolean {
  return err instanceof MeilisearchApiError && err.cause?.code === code
}
