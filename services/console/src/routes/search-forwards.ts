import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { knowledgeLimits } from '@chatsearch/contracts'
import { catalogItemsOfCsv } from '../catalog-csv.js'
import { queryOf, type UpstreamCall, type Upstream } from '../upstream.js'

/** As the search service's POST /documents allows. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024
/** The files the search service's POST /knowledge/files accepts together, and room for the form around them. */
const FILES_BODY_LIMIT = knowledgeLimits.filesTotalBytesMax + 1024 * 1024

type Params = Record<string, string>

/**
 * Catalog, knowledge, tasks and search of a project: thin forwards to the search service's own
 * routes with the service token (decision 15), its answers passed on as they are.
 */
export async function searchForwards (app: FastifyInstance, opts: { search: Upstream }) {
  const { search } = opts
  const relay = (request: FastifyRequest, reply: Parameters<Upstream['relay']>[1], call: UpstreamCall) =>
    search.relay(request, reply, request.member.projectId, call)
  const simple = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, upstreamPath: (p: Params) => string) => {
    app.route({
      method,
      url: `/api/projects/:project_id${path}`,
      handler: async (request, reply) => await relay(request, reply, {
        method,
        path: upstreamPath(request.params as Params),
        query: queryOf(request),
        ...(method === 'POST' || method === 'PUT' ? { body: request.body ?? {} } : {})
      })
    })
  }
  const id = (p: Params) => encodeURIComponent(p.id ?? '')

  simple('GET', '/tasks', () => '/tasks')
  simple('GET', '/tasks/:id', (p) => `/tasks/${id(p)}`)
  simple('POST', '/search', () => '/search')
  simple('POST', '/autocomplete', () => '/autocomplete')
  simple('GET', '/settings', () => '/settings')
  simple('PUT', '/settings', () => '/settings')
  simple('DELETE', '/documents/:id', (p) => `/documents/${id(p)}`)
  simple('GET', '/knowledge/documents', () => '/knowledge/documents')
  simple('POST', '/knowledge/documents', () => '/knowledge/documents')
  simple('DELETE', '/knowledge/documents/:id', (p) => `/knowledge/documents/${id(p)}`)
  simple('POST', '/knowledge/crawl', () => '/knowledge/crawl')

  // A catalog as JSON (an array), NDJSON, or CSV converted to a JSON array here.
  await app.register(async (catalog) => {
    catalog.addContentTypeParser(['application/x-ndjson', 'text/csv'], { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT }, (_request, body, done) => { done(null, body) })
    catalog.post('/api/projects/:project_id/catalog', { bodyLimit: IMPORT_BODY_LIMIT }, async (request, reply) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
      const call: UpstreamCall = type === 'application/x-ndjson'
        ? { method: 'POST', path: '/documents', body: request.body as string, contentType: 'application/x-ndjson' }
        : { method: 'POST', path: '/documents', body: type === 'text/csv' ? catalogItemsOfCsv(request.body as string) : request.body }
      return await relay(request, reply, call)
    })
  })

  // Files stream through untouched: the search service reads and checks the parts.
  await app.register(async (files) => {
    files.addContentTypeParser('multipart/form-data', { bodyLimit: FILES_BODY_LIMIT }, (_request, payload, done) => { done(null, payload) })
    files.post('/api/projects/:project_id/knowledge/files', { bodyLimit: FILES_BODY_LIMIT }, async (request, reply) => {
      const length = request.headers['content-length']
      // Anything but multipart reaches the service as JSON, which tells the browser what it wants.
      if (!(request.body instanceof Readable)) return await relay(request, reply, { method: 'POST', path: '/knowledge/files', body: request.body ?? {} })
      return await relay(request, reply, {
        method: 'POST',
        path: '/knowledge/files',
        body: request.body,
        contentType: request.headers['content-type']!,
        ...(length === undefined ? {} : { headers: { 'content-length': length } })
      })
    })
  })
}
