import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fastifyCompress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import { ApiError } from '@chatsearch/shell'

/** Where the front end's build lands (services/console/web, a workspace package of its own). */
export const defaultWebRoot = fileURLToPath(new URL('../web/dist', import.meta.url))

/** The content security policy of the console: its own scripts, styles and API, nothing else. */
export const consoleCsp: Record<string, string[]> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"]
}

/** Vite puts content-hashed files under assets/: a new build gives them new names, so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

const notBuilt = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console</title></head>
<body><h1>The console's web app is not built</h1>
<p>Build it with <code>pnpm --filter @chatsearch/console-web build</code> and restart; the JSON API under <code>/api</code> works meanwhile.</p>
</body></html>
`

async function filesUnder (root: string): Promise<Set<string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return new Set(entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/')))
}

/**
 * GET / and every path outside /api: the built web app, index.html for the app's own routes
 * (the browser router's paths), or a placeholder page saying it is not built.
 */
export async function webRoutes (app: FastifyInstance, opts: { root: string }) {
  const built = existsSync(join(opts.root, 'index.html'))
  const files = built ? await filesUnder(opts.root) : new Set<string>()
  if (built) await app.register(fastifyStatic, { root: opts.root, serve: false, cacheControl: false })
  // The app's scripts and styles are text: gzip or brotli sends a third of their bytes (first load 79
  // KiB → about 26 KiB). Only this plugin's routes: the JSON API stays as it is.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], threshold: 1024 })

  app.get('/*', { config: { requestLogLevel: 'debug' }, schema: { hide: true } }, async (request, reply) => {
    const path = (request.params as { '*': string })['*']
    if (path === 'api' || path.startsWith('api/')) throw new ApiError('not_found', `no route GET /${path}`)
    if (!built) return await reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(notBuilt)
    if (files.has(path) && path !== 'index.html') {
      return await reply.header('cache-control', path.startsWith('assets/') ? IMMUTABLE : 'no-cache').sendFile(path)
    }
    return await reply.header('cache-control', 'no-cache').sendFile('index.html')
  })
}
