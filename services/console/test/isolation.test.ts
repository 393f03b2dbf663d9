import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { harness, signIn } from './helpers.js'

/** Every route of the app as [method, path], read from Fastify's own route tree (so a new route cannot be left out). */
function routesOf (app: FastifyInstance): Array<[string, string]> {
  const routes: Array<[string, string]> = []
  const stack: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line.replaceAll('\u00a0', ' '))
    if (match === null) continue
    const depth = match[1]!.length / 4
    stack.length = depth
    stack.push(match[2]!)
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD') routes.push([method, stack.join('')])
  }
  return routes
}

t.test('every /api/projects/:project_id route answers 404 project_not_found for a project the user is not a member of', async (t) => {
  const h = await harness(t)
  await h.user('alice')
  await h.user('mallory')
  const alicesProject = await h.project('Alice shop', { alice: 'owner' })
  const app = await h.app()
  const mallory = await signIn(app, 'mallory')
  await h.project('Mallory shop', { mallory: 'owner' })

  const scoped = routesOf(app).filter(([, path]) => path.startsWith('/api/projects/:project_id'))
  t.equal(scoped.length, 45, 'the route tree was read whole (update the count when a route is added)')
  const bodies: Record<string, unknown> = {
    '/api/projects/:project_id': { name: 'Taken over' },
    '/api/projects/:project_id/members': { username: 'mallory', role: 'owner' },
    '/api/projects/:project_id/credentials': { service: 'chat' },
    '/api/projects/:project_id/chats/:chat_id/answer': { content: 'hi' },
    '/api/projects/:project_id/playground/chat': { user_message: 'hi' },
    '/api/projects/:project_id/search': { search_term: 'x' },
    '/api/projects/:project_id/facet-search': { facet_name: 'brand' },
    '/api/projects/:project_id/rules': [],
    '/api/projects/:project_id/webhooks': { url: 'https://hooks.example/in', events: ['chat.handoff'] },
    '/api/projects/:project_id/webhooks/:webhook_id': { enabled: false }
  }
  for (const [method, path] of scoped) {
    for (const projectId of [alicesProject, 'prj_doesnotexist']) {
      const url = path.replace(':project_id', projectId).replace(/:\w+/g, 'x')
      const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH'
      const res = await mallory.request({ method: method as 'GET', url, ...(hasBody ? { payload: bodies[path] ?? {} } : {}) })
      t.equal(res.statusCode, 404, `${method} ${path} (${projectId === alicesProject ? "another user's project" : 'no such project'})`)
      t.equal(res.json().code, 'project_not_found')
    }
  }
  const { rows } = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys')
  t.equal(rows[0]!.n, 0, 'no credential was issued')
  const members = await h.db.query('SELECT 1 FROM project_members WHERE project_id = $1', [alicesProject])
  t.equal(members.rowCount, 1, 'nobody joined')
  const names = await h.db.query<{ name: string }>('SELECT name FROM projects WHERE id = $1', [alicesProject])
  t.equal(names.rows[0]!.name, 'Alice shop', 'nothing renamed')
})

t.test('without a session every API route but sign-in is 401', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  const api = routesOf(app).filter(([method, path]) => path.startsWith('/api/') && !(method === 'POST' && path === '/api/session'))
  for (const [method, path] of api) {
    const res = await app.inject({ method: method as 'GET', url: path.replace(/:\w+/g, 'x'), ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) })
    t.equal(res.statusCode, 401, `${method} ${path}`)
  }
})
