import t from 'tap'
import {
  MeilisearchApiError, MeilisearchRequestError, MeilisearchRequestTimeOutError, MeilisearchTaskTimeOutError, type Task
} from 'meilisearch'
import { ApiError } from '@chatsearch/shell'
import { fromFailedTask, fromMeilisearchError, hasCode } from '../src/engines/meilisearch/errors.js'

/** The error the client throws for an error answer (built with the client's own class). */
const apiError = (status: number, code: string, message = `${code} happened`) =>
  new MeilisearchApiError(new Response(null, { status }), { code, message, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` })

const bodyOf = (error: ApiError) => ({ statusCode: error.statusCode, error: error.error, code: error.code })

t.test('Meilisearch error codes → the service\'s error body', async (t) => {
  const cases: Array<[number, string, { statusCode: number, error: string, code: string }]> = [
    [400, 'invalid_search_filter', { statusCode: 400, error: 'Bad Request', code: 'invalid_filter' }],
    [400, 'invalid_search_facets', { statusCode: 400, error: 'Bad Request', code: 'invalid_facet' }],
    [400, 'feature_not_enabled', { statusCode: 501, error: 'Not Implemented', code: 'not_implemented' }],
    [413, 'payload_too_large', { statusCode: 413, error: 'Payload Too Large', code: 'payload_too_large' }],
    [400, 'invalid_document_id', { statusCode: 400, error: 'Bad Request', code: 'invalid_document' }],
    [400, 'max_fields_limit_exceeded', { statusCode: 400, error: 'Bad Request', code: 'invalid_document' }],
    [400, 'invalid_search_q', { statusCode: 400, error: 'Bad Request', code: 'invalid_request' }],
    [500, 'internal', { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' }],
    [503, 'too_many_search_requests', { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' }],
    [403, 'invalid_api_key', { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' }],
    [401, 'missing_authorization_header', { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' }],
    [404, 'index_not_found', { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' }],
    [500, 'some_future_code', { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' }]
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
  t.same(bodyOf(refused), { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' })
  t.notMatch(refused.message, /10\.1\.2\.3|ECONNREFUSED|7700/, 'no address or system error in the answer')
  const slow = fromMeilisearchError(new MeilisearchRequestTimeOutError(10_000, { method: 'POST' }))
  t.same(bodyOf(slow), { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' })
  const task = fromMeilisearchError(new MeilisearchTaskTimeOutError(17, 30_000), 30_000)
  t.same(bodyOf(task), { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' })
  t.match(task.message, /did not finish the write within 30000 ms/)
  t.same(bodyOf(fromMeilisearchError(new TypeError('fetch failed'))), { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' })
  const ours = new ApiError(400, 'Bad Request', 'invalid_filter', 'x')
  t.equal(fromMeilisearchError(ours), ours, 'our own errors pass through')
})

t.test('a write (task) that failed or was canceled', async (t) => {
  const task = (status: Task['status'], error: Task['error']) => ({ uid: 3, indexUid: 'i', status, type: 'documentAdditionOrUpdate', enqueuedAt: '', batchUid: 1, canceledBy: null, error, duration: null, startedAt: null, finishedAt: null }) as Task
  t.same(bodyOf(fromFailedTask(task('failed', { code: 'invalid_document_fields', message: 'bad field', type: 'invalid_request', link: '' }))),
    { statusCode: 400, error: 'Bad Request', code: 'invalid_document' })
  t.same(bodyOf(fromFailedTask(task('failed', { code: 'no_space_left_on_device', message: 'full', type: 'system', link: '' }))),
    { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' })
  t.same(bodyOf(fromFailedTask(task('canceled', null))), { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable' })
})

t.test('hasCode recognises the answer of a given code only', async (t) => {
  t.ok(hasCode(apiError(404, 'document_not_found'), 'document_not_found'))
  t.notOk(hasCode(apiError(404, 'index_not_found'), 'document_not_found'))
  t.notOk(hasCode(new Error('document_not_found'), 'document_not_found'))
})
