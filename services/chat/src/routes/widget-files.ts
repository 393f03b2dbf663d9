import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { widgetDist, panelVersionOf } from '@chatsearch/chat-widget'
import { NoContent, WidgetFileQuery, WidgetScript, publicErrorResponses, widgetFileNames, type WidgetFileName } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'

/** The loader's URL never changes: a shop's pages pick up a new one within minutes. */
const SHORT_CACHE = 'public, max-age=300'
const LONG_CACHE = 'public, max-age=31536000, immutable'

type Encoding = 'br' | 'gzip' | 'identity'

interface Served { etag: string, version: string, bodies: Record<Encoding, Buffer> }

/** The encoding to answer with: br, then gzip, when the client accepts it (q=0 refuses). */
export function encodingFor (accept: string | undefined): Encoding {
  const accepted = new Set((accept ?? '').split(',').flatMap((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    return params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)) ? [] : [name?.trim() ?? '']
  }))
  if (accepted.has('br')) return 'br'
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip'
  return 'identity'
}

/** A built file, compressed once at start-up: the files are static, the requests many. */
async function load (file: WidgetFileName): Promise<Served | undefined> {
  let body: Buffer
  try {
    body = await readFile(widgetDist + file)
  } catch {
    return undefined
  }
  return {
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    version: panelVersionOf(body),
    bodies: {
      identity: body,
      gzip: gzipSync(body, { level: 9 }),
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    }
  }
}

/**
 * GET /widget/v1/loader.js and /widget/v1/panel.js: the widget a shop embeds (issue 29), public and
 * the same for every shop (the key is on the shop's script tag), so readable from any origin.
 */
export async function widgetFileRoutes (app: FastifyInstance) {
  const files = Object.fromEntries(await Promise.all(widgetFileNames.map(async (f) => [f, await load(f)] as const))) as Record<WidgetFileName, Served | undefined>
  const missing = widgetFileNames.filter((f) => files[f] === undefined)
  if (missing.length > 0) app.log.warn({ missing, folder: widgetDist }, 'the widget is not built (pnpm install builds it); its files answer 404')

  const serve = (file: WidgetFileName) => async (request: FastifyRequest<{ Querystring: WidgetFileQuery }>, reply: FastifyReply) => {
    const served = files[file]
    if (served === undefined) throw new ApiError('not_found', `the widget's ${file} is not built on this server`)
    const encoding = encodingFor(request.headers['accept-encoding'])
    reply.headers({
      'cache-control': file === 'panel.js' && request.query.v === served.version ? LONG_CACHE : SHORT_CACHE,
      etag: served.etag,
      vary: 'Accept-Encoding',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'x-content-type-options': 'nosniff'
    })
    if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === served.etag) === true) {
      return await reply.code(304).send()
    }
    if (encoding !== 'identity') reply.header('content-encoding', encoding)
    return await reply.type('text/javascript; charset=utf-8').send(served.bodies[encoding])
  }

  for (const file of widgetFileNames) {
    app.get(`/widget/v1/${file}`, {
      config: { requestLogLevel: 'debug' },
      schema: {
        operationId: file === 'loader.js' ? 'widgetLoader' : 'widgetPanel',
        tags: ['widget'],
        summary: file === 'loader.js'
          ? 'The script a shop embeds: draws the chat launcher and loads the panel when opened'
          : 'The chat panel the loader fetches when the shopper first opens the chat',
        description: 'Public, no credential: `<script src="…/widget/v1/loader.js" data-key="csk_pub_…" async></script>`. Compressed with br or gzip as Accept-Encoding allows; an ETag answers If-None-Match with 304; readable from any origin.' +
          (file === 'panel.js' ? ' The loader asks for `panel.js?v=<content hash>`, cached for a year when the hash is the served file\'s.' : ' Cached for five minutes, so a new version reaches a shop\'s pages quickly.'),
        security: [],
        querystring: WidgetFileQuery,
        response: {
          200: { description: 'The script', content: { 'text/javascript': { schema: WidgetScript } } },
          304: NoContent('Not modified: the copy named by If-None-Match is the current one'),
          ...publicErrorResponses('not_found')
        }
      }
    }, serve(file))
  }
}
