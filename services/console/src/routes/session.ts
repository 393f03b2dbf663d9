import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { NoContent, SessionResponse, SignInBody, bodyErrors, publicErrorResponses, sessionErrorResponses } from '@chatsearch/contracts'
import { ApiError, type RateLimitStore } from '@chatsearch/shell'
import { decoyHash, verifyPassword } from '../password.js'
import { findUser } from '../store/users.js'
import { createSession, deleteSession } from '../store/sessions.js'
import { documentCsrf, SESSION_COOKIE } from '../session.js'

/** The window in which CONSOLE_SIGNIN_FAILURES failed sign-ins of one username from one address are allowed. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000

export interface SessionRouteOptions {
  ttlMs: number
  /** Failed sign-ins per username and address and window; 0: not throttled. */
  failures: number
  store: RateLimitStore
}

export async function sessionRoutes (app: FastifyInstance, opts: SessionRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post('/api/session', {
    schema: {
      operationId: 'signIn',
      tags: ['session'],
      summary: 'Sign in with a console username and password: sets the session cookie and answers its CSRF token',
      description: 'Sets `console_session` (HttpOnly, SameSite=Strict, Secure over HTTPS). Send the `csrf_token` back in `X-CSRF-Token` with every POST, PUT, PATCH and DELETE. Failed sign-ins of one username from one address are throttled (CONSOLE_SIGNIN_FAILURES per 15 minutes): past it, 429 `authentication_throttled` with Retry-After, even with the right password.',
      security: [],
      body: SignInBody,
      response: {
        200: {
          ...SessionResponse,
          headers: { 'Set-Cookie': { type: 'string', description: '`console_session=…; Path=/; HttpOnly; SameSite=Strict` with `Max-Age` of the session' } }
        },
        ...publicErrorResponses('missing_parameters', ...bodyErrors, 'invalid_credentials', 'authentication_throttled')
      }
    }
  }, async (request, reply) => {
    const { username, password } = request.body
    const key = `signin:${username.toLowerCase()}:${request.ip}`
    if (opts.failures > 0) {
      // Counted before the password is checked, and taken back if it is right: counted after the
      // check (a slow hash), a burst of guesses sent at once all passed the limit together.
      const window = await opts.store.hit(key, SIGN_IN_WINDOW_MS)
      if (window.count > opts.failures) {
        const retryS = Math.max(1, Math.ceil(window.resetMs / 1000))
        throw new ApiError('authentication_throttled', `too many failed sign-ins for ${username}; retry in ${retryS} s`, { 'retry-after': String(retryS) })
      }
    }
    const user = await findUser(app.pg, username)
    // An unknown name costs a hash too, so that timing does not tell which names exist.
    const valid = await verifyPassword(password, user?.password_hash ?? await decoyHash())
    if (user === undefined || !valid) throw new ApiError('invalid_credentials', 'the username or the password is wrong')
    // The password was right: a store that fails to take the attempt back costs at most one count.
    if (opts.failures > 0) await opts.store.release(key).catch((err: unknown) => request.log.warn({ err }, 'a successful sign-in was left counted: the rate-limit store failed'))
    const session = await createSession(app.pg, user.id, opts.ttlMs)
    app.setSessionCookie(request, reply, session.id)
    return { username: user.username, csrf_token: session.csrfToken }
  })

  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', signedIn.requireSession)
    signedIn.addHook('onRoute', documentCsrf)

    signedIn.get('/api/session', {
      schema: {
        operationId: 'getSession',
        tags: ['session'],
        summary: 'The signed-in user and the session\'s CSRF token',
        response: { 200: SessionResponse, ...sessionErrorResponses() }
      }
    }, async (request) => ({ username: request.session.username, csrf_token: request.session.csrfToken }))

    signedIn.delete('/api/session', {
      schema: {
        operationId: 'signOut',
        tags: ['session'],
        summary: 'Sign out: ends the session and clears its cookie',
        response: { 204: NoContent('Signed out'), ...sessionErrorResponses(...bodyErrors, 'csrf_failed') }
      }
    }, async (request, reply) => {
      await deleteSession(app.pg, request.cookies[SESSION_COOKIE]!)
      app.clearSessionCookie(request, reply)
      return await reply.code(204).send()
    })
  })
}
