import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createTcpServer, type AddressInfo } from 'node:net'

export type Route = (req: IncomingMessage, res: ServerResponse, site: Site) => void | Promise<void>

export interface Site {
  /** http://127.0.0.1:<port> */
  origin: string
  port: number
  /** Every request received, in order of arrival. */
  requests: Array<{ path: string, userAgent: string | undefined }>
  /** The most requests that were being answered at one time. */
  maxConcurrent: number
}

interface TestLike { teardown: (fn: () => unknown) => void }

/**
 * A real HTTP server on 127.0.0.1 (random port) answering `routes` by path (with the query), 404
 * otherwise; closed, with every open connection, when the test ends.
 */
export async function startSite (t: TestLike, routes: Record<string, Route>): Promise<Site> {
  let active = 0
  const site: Site = { origin: '', port: 0, requests: [], maxConcurrent: 0 }
  const server = createServer((req, res) => {
    site.requests.push({ path: req.url ?? '', userAgent: req.headers['user-agent'] })
    active++
    site.maxConcurrent = Math.max(site.maxConcurrent, active)
    res.once('close', () => { active-- })
    const route = routes[req.url ?? '']
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>')
      return
    }
    Promise.resolve(route(req, res, site)).catch((err: unknown) => res.destroy(err as Error))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site.port = (server.address() as AddressInfo).port
  site.origin = `http://127.0.0.1:${site.port}`
  t.teardown(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return site
}

/** An HTML page answer. */
export function page (html: string, headers: Record<string, string> = {}): Route {
  return (_req, res) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(html) }
}

/** A redirect answer. */
export function redirect (location: string, status = 302): Route {
  return (_req, res) => { res.writeHead(status, { location }).end() }
}

/** The paths a site was asked for. */
export function paths (site: Site): string[] {
  return site.requests.map((r) => r.path)
}

/** A port on 127.0.0.1 where nothing listens (one that was free a moment ago). */
export async function freePort (): Promise<number> {
  const server = createTcpServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
