import t from 'tap'
import {
  MeilisearchApiError, MeilisearchRequestError, MeilisearchRequestTimeOutError, MeilisearchTaskTimeOutError, type Task
} from 'meilisearch'
import { ApiError } from '@chatsearch/shell'
import { fromFailedTask, fromMeilisearchError, hasCode } from '../src/engines/meilisearch/errors.js'

/** The error the client throws for an error answer (built with the client's own class). */
const apiError = (status: number, code: string, message = `${code} happened`) =>
  new MeilisearchApiError(new Response(null, { status }), { code, message, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` })

const bodyOf = (error: ApiError): { statusCode: number, error: string, code: string } => ({ statusCode: error.statusCode, error: error.error, code: error.code })
const badRequest = (code: string) => ({ statusCode: 400, error: 'Bad Request', code })
const unavailable = { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' }

t.test('Meilisearch error codes → the service\'s error body', async (t) => {
  const cases: Array<[number, string, ReturnType<typeof bodyOf>]> = [
    [400, 'invalid_search_filter', badRequest('invalid_filter')],
    [400, 'invalid_search_facets', badRequest('invalid_facet')],
    [400, 'invalid_facet_search_facet_name', badRequest('invalid_facet')],
    [400, 'invalid_search_sort', badRequest('invalid_sort')],
    // settings (a failed task): the caller's, as PUT /settings refuses them itself
    [400, 'invalid_settings_sortable_attributes', badRequest('invalid_request')],
    [400, 'invalid_settings_synonyms', badRequest('invalid_request')],
    [400, 'invalid_settings_stop_words', badRequest('invalid_request')],
    [400, 'feature_not_enabled', { statusCode: 501, error: 'Not Implemented', code: 'not_implemented' }],
    [413, 'payload_too_large', { statusCode: 413, error: 'Payload Too Large', code: 'payload_too_large' }],
    [400, 'invalid_document_id', badRequest('invalid_document')],
    [400, 'max_fields_limit_exceeded', badRequest('invalid_document')],
    [400, 'invalid_search_q', badRequest('invalid_request')],
    // the engine's own trouble, whatever its status: nothing the caller can fix
    [500, 'internal', unavailable],
    [503, 'too_many_search_requests', unavailable],
    [403, 'invalid_api_key', unavailable],
    [401, 'missing_authorization_header', unavailable],
    [404, 'index_not_found', unavailable],
    // the adapter's own vectors and embedder (a search naming an embedder the index lacks): not the caller's to fix
    [400, 'invalid_search_embedder', unavailable],
    [400, 'invalid_vectors_type', unavailable],
    // what the API takes is always what Meilisearch takes: the adapter and the engine disagree
    [400, 'invalid_search_matching_strategy', unavailable],
    [400, 'missing_facet_search_facet_name', unavailable],
    // facet search switched off on the index by an operator (the adapter leaves Meilisearch's default on)
    [400, 'facet_search_disabled', unavailable],
    [500, 'some_future_code', unavailable]
  ]
  for (const [status, code, expected] of cases) {
    const mapped = fromMeilisearchError(apiError(status, code))
    t.type(mapped, ApiError)
    t.same(bodyOf(mapped), expected, code)
  }
  const filter = fromMeilisearchError(apiError(400, 'invalid_search_filter', 'Attribute `x` is not filterable.'))
  t.equal(filter.message, 'Attribute `x` is not filterable.', 'a 4xx keeps Meilisearch\'s explanation')
  const internal = fromMeilisearchError(apiError(500, 'internal', 'disk at /var/lib/meili failed'))
  t.notMatch(internal.message, /var\/lib|internal|disk/, 'a 5xx says nothing of the engine\'s insides')
  t.equal(internal.cause instanceof MeilisearchApiError, true, 'the original error is kept for the log')
})

t.test('an unreachable or slow Meilisearch is a 503, never a 500', async (t) => {
  const refused = fromMeilisearchError(new MeilisearchRequestError('http://10.1.2.3:7700/indexes/x/search', new Error('connect ECONNREFUSED')))
  t.same(bodyOf(refused), unavailable)
  t.notMatch(refused.message, /10\.1\.2\.3|ECONNREFUSED|7700/, 'no address or system error in the answer')
  const slow = fromMeilisearchError(new MeilisearchRequestTimeOutError(10_000, { method: 'POST' }))
  t.same(bodyOf(slow), unavailable)
  const task = fromMeilisearchError(new MeilisearchTaskTimeOutError(17, 30_000), 30_000)
  t.same(bodyOf(task), unavailable)
  t.match(task.message, /did not finish the write within 30000 ms/)
  t.same(bodyOf(fromMeilisearchError(new TypeError('fetch failed'))), unavailable)
  const ours = new ApiError('invalid_filter', 'x')
  t.equal(fromMeilisearchError(ours), ours, 'our own errors pass through')
})

t.test('a write (task) that failed or was canceled', async (t) => {
  const task = (status: Task['status'], error: Task['error']) => ({ uid: 3, indexUid: 'i', status, type: 'documentAdditionOrUpdate', enqueuedAt: '', batchUid: 1, canceledBy: null, error, duration: null, startedAt: null, finishedAt: null }) as Task
  t.same(bodyOf(fromFailedTask(task('failed', { code: 'invalid_document_fields', message: 'bad field', type: 'invalid_request', link: '' }))),
    badRequest('invalid_document'))
  t.same(bodyOf(fromFailedTask(task('failed', { code: 'no_space_left_on_device', message: 'full', type: 'system', link: '' }))),
    unavailable)
  t.same(bodyOf(fromFailedTask(task('failed', { code: 'invalid_settings_synonyms', message: 'bad synonyms', type: 'invalid_request', link: '' }))),
    badRequest('invalid_request'), 'settings are applied as a task too')
  t.same(bodyOf(fromFailedTask(task('canceled', null))), unavailable)
})

t.test('hasCode recognises the answer of a given code only', async (t) => {
  t.ok(hasCode(apiError(404, 'document_not_found'), 'document_not_found'))
  t.notOk(hasCode(apiError(404, 'index_not_found'), 'document_not_found'))
  t.notOk(hasCode(new Error('document_not_found'), 'document_not_found'))
})
