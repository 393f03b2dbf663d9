import fp from 'fastify-plugin'
import cookie from '@fastify/cookie'
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { Type } from 'typebox'
import { timingSafeEqual, createHash } from 'node:crypto'
import { ApiError } from '@chatsearch/shell'
import { deleteExpiredSessions, findSession, type Session } from './store/sessions.js'

export const SESSION_COOKIE = 'console_session'
export const CSRF_HEADER = 'x-csrf-token'
/** The session cookie as the OpenAPI document's security scheme. */
export const sessionSecurity = {
  name: 'session',
  scheme: { type: 'apiKey' as const, in: 'cookie', name: SESSION_COOKIE, description: 'The console session: set by POST /api/session (HttpOnly, SameSite=Strict), ended by DELETE /api/session or after CONSOLE_SESSION_TTL_HOURS' }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's session; set by `requireSession`. */
    session: Session
  }
  interface FastifyInstance {
    /** onRequest hook: a live session, or 401; with a state-changing method, its CSRF token too, or 403. */
    requireSession: (request: FastifyRequest) => Promise<void>
    /** Sets the session cookie (Secure when the request came over TLS). */
    setSessionCookie: (request: FastifyRequest, reply: FastifyReply, id: string) => void
    clearSessionCookie: (request: FastifyRequest, reply: FastifyReply) => void
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()

const CsrfToken = Type.String({ description: 'The `csrf_token` of POST or GET /api/session; without it (or with another) a state-changing request is 403 `csrf_failed`' })

/**
 * An onRoute hook for the scopes that `requireSession` guards: their state-changing routes are
 * documented with the X-CSRF-Token header (required) it checks. Hidden routes are left alone.
 */
export function documentCsrf (route: RouteOptions) {
  const schema = route.schema as Record<string, unknown> | undefined
  if (schema === undefined || schema.hide === true) return
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  if (methods.every((m) => SAFE_METHODS.has(m))) return
  const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown>, required?: string[] }
  route.schema = {
    ...schema,
    headers: { ...headers, type: 'object', properties: { ...headers.properties, 'X-CSRF-Token': CsrfToken }, required: [...(headers.required ?? []), 'X-CSRF-Token'] }
  }
}

/** Both hashed to equal length first, so the comparison tells nothing of the token. */
export const sameToken = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected))

export interface SessionOptions { ttlMs: number }

/**
 * Sessions by cookie. The cookie is HttpOnly and SameSite=Strict; besides, every request that
 * changes something must echo the session's CSRF token in X-CSRF-Token, which a page of another
 * origin cannot read.
 */
export const sessionPlugin = fp<SessionOptions>(async (app, opts) => {
  await app.register(cookie)
  const cookieOptions = (request: FastifyRequest) => ({
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https'
  })
  app.decorateRequest('session', null as unknown as Session)
  app.decorate('setSessionCookie', (request: FastifyRequest, reply: FastifyReply, id: string) => {
    reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions(request), maxAge: Math.floor(opts.ttlMs / 1000) })
  })
  app.decorate('clearSessionCookie', (request: FastifyRequest, reply: FastifyReply) => {
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request))
  })
  app.decorate('requireSession', async (request: FastifyRequest) => {
    const id = request.cookies[SESSION_COOKIE]
    const session = id === undefined || id === '' ? undefined : await findSession(app.pg, id)
    if (session === undefined) throw new ApiError('unauthorized', 'sign in first: POST /api/session with your username and password')
    if (!SAFE_METHODS.has(request.method)) {
      const token = request.headers[CSRF_HEADER]
      if (typeof token !== 'string' || !sameToken(token, session.csrfToken)) {
        throw new ApiError('csrf_failed', 'send the csrf_token of GET /api/session in the X-CSRF-Token header')
      }
    }
    request.session = session
  })
  // Ended sessions are refused when read; this sweep only keeps the table small.
  const sweep = setInterval(() => { deleteExpiredSessions(app.pg).catch(() => {}) }, 3_600_000)
  sweep.unref()
  app.addHook('onClose', async () => { clearInterval(sweep) })
}, { name: 'console-session', fastify: '5.x', dependencies: ['@chatsearch/database'] })
