import { Type, type Static } from 'typebox'
import { limits } from './limits.js'
import { Timestamp, timestampOrNull } from './timestamp.js'

// The console's own JSON API under /api (services/console), signed in by session cookie. Routes
// that only forward to the chat or search service answer with that service's own schemas.

/** Console usernames: short, printable, no spaces (they also name credentials and human answers). */
export const usernamePattern = '^[A-Za-z0-9._@-]{1,64}$'
export const Username = Type.String({ pattern: usernamePattern, description: '1 to 64 letters, digits, `.`, `_`, `@` or `-`' })
/** Console passwords: long enough to resist guessing, short enough to hash cheaply. */
export const passwordLimits = { minChars: 10, maxChars: 256 } as const
export const Password = Type.String({ minLength: passwordLimits.minChars, maxLength: passwordLimits.maxChars })

export const SignInBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: passwordLimits.maxChars })
}, { additionalProperties: false })
export type SignInBody = Static<typeof SignInBody>

export const SessionResponse = Type.Object({
  username: Type.String(),
  csrf_token: Type.String({ description: 'Send it back in the X-CSRF-Token header of every POST, PUT, PATCH and DELETE' })
}, { additionalProperties: false })
export type SessionResponse = Static<typeof SessionResponse>

export const ProjectRole = Type.Union([Type.Literal('owner'), Type.Literal('member')])
export type ProjectRole = Static<typeof ProjectRole>

export const ConsoleProject = Type.Object({
  id: Type.String(),
  name: Type.String(),
  role: ProjectRole,
  created_at: Timestamp
}, { additionalProperties: false })
export type ConsoleProject = Static<typeof ConsoleProject>

export const ConsoleProjectsResponse = Type.Object({ projects: Type.Array(ConsoleProject) }, { additionalProperties: false })
export type ConsoleProjectsResponse = Static<typeof ConsoleProjectsResponse>

export const ProjectNameBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })
}, { additionalProperties: false })
export type ProjectNameBody = Static<typeof ProjectNameBody>

export const ProjectParams = Type.Object({ project_id: Type.String({ minLength: 1, maxLength: limits.idMaxChars }) })
export type ProjectParams = Static<typeof ProjectParams>

export const Member = Type.Object({
  username: Type.String(),
  role: ProjectRole,
  added_at: Timestamp
}, { additionalProperties: false })
export type Member = Static<typeof Member>

export const MembersResponse = Type.Object({ members: Type.Array(Member) }, { additionalProperties: false })
export type MembersResponse = Static<typeof MembersResponse>

export const AddMemberBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  role: Type.Optional(ProjectRole)
}, { additionalProperties: false })
export type AddMemberBody = Static<typeof AddMemberBody>

export const MemberParams = Type.Object({
  project_id: Type.String({ minLength: 1, maxLength: limits.idMaxChars }),
  username: Type.String({ minLength: 1, maxLength: 64 })
})
export type MemberParams = Static<typeof MemberParams>

export const CredentialService = Type.Union([Type.Literal('chat'), Type.Literal('search'), Type.Literal('widget')], {
  description: '`chat` (API keys), `search` (API tokens) or `widget` (publishable keys `csk_pub_…` for the shop\'s pages, bound to origins)'
})
export type CredentialService = Static<typeof CredentialService>

/** A widget key's allowed origins, exactly as browsers send them in Origin. */
export const Origins = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
  minItems: 1,
  maxItems: limits.widgetOriginsMax,
  description: 'Exact origins (`https://shop.example`, `http://localhost:8080`: scheme, host, port when not the default; no path) the widget key is accepted from',
  examples: [['https://shop.example']]
})

export const Credential = Type.Object({
  id: Type.String(),
  service: CredentialService,
  username: Type.String(),
  hint: Type.String({ description: 'The key\'s service prefix and last four characters' }),
  origins: Type.Optional(Origins),
  created_at: Timestamp,
  last_used_at: timestampOrNull('When the credential last authenticated a request (recorded every 10 s or so); null if never'),
  revoked_at: timestampOrNull('When the credential was revoked; null while it is live')
}, { additionalProperties: false })
export type Credential = Static<typeof Credential>

export const CredentialsQuery = Type.Object({ service: Type.Optional(CredentialService) }, { additionalProperties: false })
export type CredentialsQuery = Static<typeof CredentialsQuery>

export const CredentialsResponse = Type.Object({ credentials: Type.Array(Credential) }, { additionalProperties: false })
export type CredentialsResponse = Static<typeof CredentialsResponse>

export const IssueCredentialBody = Type.Object({
  service: CredentialService,
  origins: Type.Optional(Origins)
}, { additionalProperties: false, description: 'A widget key needs `origins`; the other services\' keys take none' })
export type IssueCredentialBody = Static<typeof IssueCredentialBody>

export const IssuedCredential = Type.Object({
  id: Type.String(),
  service: CredentialService,
  username: Type.String(),
  key: Type.String({ description: 'The secret, shown this once: only its hash is kept' }),
  hint: Type.String(),
  origins: Type.Optional(Origins),
  created_at: Timestamp
}, { additionalProperties: false })
export type IssuedCredential = Static<typeof IssuedCredential>

export const CredentialParams = Type.Object({
  project_id: Type.String({ minLength: 1, maxLength: limits.idMaxChars }),
  credential_id: Type.String({ minLength: 1, maxLength: limits.idMaxChars })
})
export type CredentialParams = Static<typeof CredentialParams>

/** The project's widget settings for its team: the identity secret its server signs customer ids with. */
export const WidgetSettings = Type.Object({
  identity_secret: Type.String({ description: 'Identity verification: the shop\'s server sends X-Consumer-Id with X-Consumer-Hmac, the hex HMAC-SHA256 of the customer id under this secret. Keep it on the server.' }),
  loader_url: Type.String({ description: 'The src of the widget\'s <script> tag: the chat service\'s /widget/v1/loader.js as browsers reach it (CHAT_PUBLIC_URL); a path, when the chat service is under the console\'s own origin (a gateway), is resolved against the page' })
}, { additionalProperties: false })
export type WidgetSettings = Static<typeof WidgetSettings>

/** A team member's answer from the console; the username is the signed-in user's. */
export const ConsoleAnswerBody = Type.Object({
  content: Type.String({ minLength: 1, maxLength: limits.userMessageMaxChars, pattern: '\\S' })
}, { additionalProperties: false })
export type ConsoleAnswerBody = Static<typeof ConsoleAnswerBody>

/** A playground message: sent to the chat service as a test chat of consumer `console:<username>`. */
export const PlaygroundBody = Type.Object({
  user_message: Type.String({ minLength: 1, maxLength: limits.userMessageMaxChars, pattern: '\\S' }),
  chat_id: Type.Optional(Type.String({ maxLength: limits.idMaxChars })),
  stream: Type.Optional(Type.Boolean({ description: 'Answer as server-sent events, as POST /newUserMessage with Accept: text/event-stream' }))
}, { additionalProperties: false })
export type PlaygroundBody = Static<typeof PlaygroundBody>

/** A 204 answer: no body (documented without content; `reply.code(204).send()` type-checks against it). */
export const NoContent = (description: string) => Type.Unsafe<void>({ type: 'null', description })
