import t from 'tap'
import { harness, signIn } from './helpers.js'

t.test('projects: creating, listing, renaming; the creator owns it', async (t) => {
  const h = await harness(t)
  await h.user('olga')
  await h.user('mike')
  const app = await h.app()
  const olga = await signIn(app, 'olga')
  const mike = await signIn(app, 'mike')

  const created = await olga.request({ method: 'POST', url: '/api/projects', payload: { name: '  Outdoor shop ' } })
  t.equal(created.statusCode, 201)
  const project = created.json() as { id: string, name: string, role: string, created_at: string }
  t.match(project, { name: 'Outdoor shop', role: 'owner' })
  t.match(project.id, /^prj_/)
  t.same((await olga.request({ method: 'GET', url: '/api/projects' })).json(), { projects: [project] })
  t.same((await mike.request({ method: 'GET', url: '/api/projects' })).json(), { projects: [] }, 'another user sees none of it')

  t.equal((await olga.request({ method: 'POST', url: '/api/projects', payload: { name: '   ' } })).statusCode, 400, 'a blank name')
  t.equal((await olga.request({ method: 'POST', url: '/api/projects', payload: { name: 'x'.repeat(201) } })).statusCode, 400, 'a name too long')

  const renamed = await olga.request({ method: 'PATCH', url: `/api/projects/${project.id}`, payload: { name: 'Mountain shop' } })
  t.equal(renamed.statusCode, 200)
  t.equal(renamed.json().name, 'Mountain shop')
  t.equal((await olga.request({ method: 'GET', url: `/api/projects/${project.id}` })).json().name, 'Mountain shop')
})

t.test('members: owners add and remove; members read only; a project keeps an owner', async (t) => {
  const h = await harness(t)
  for (const name of ['owner1', 'member1', 'newbie']) await h.user(name)
  const projectId = await h.project('Shop', { owner1: 'owner', member1: 'member' })
  const app = await h.app()
  const owner = await signIn(app, 'owner1')
  const member = await signIn(app, 'member1')
  const base = `/api/projects/${projectId}`

  const listed = (await member.request({ method: 'GET', url: `${base}/members` })).json() as { members: Array<{ username: string, role: string }> }
  t.same(listed.members.map((m) => [m.username, m.role]), [['owner1', 'owner'], ['member1', 'member']], 'a member sees who else is in')
  t.same((await member.request({ method: 'GET', url: '/api/projects' })).json().projects.map((p: { role: string }) => p.role), ['member'])

  for (const [method, url, payload] of [
    ['PATCH', base, { name: 'Mine now' }],
    ['POST', `${base}/members`, { username: 'newbie' }],
    ['DELETE', `${base}/members/owner1`, undefined]
  ] as const) {
    const res = await member.request({ method, url, ...(payload === undefined ? {} : { payload }) })
    t.equal(res.statusCode, 403, `a member may not ${method} ${url}`)
    t.equal(res.json().code, 'owner_required')
  }

  const added = await owner.request({ method: 'POST', url: `${base}/members`, payload: { username: 'newbie' } })
  t.equal(added.statusCode, 201)
  t.match(added.json(), { username: 'newbie', role: 'member' })
  t.equal((await owner.request({ method: 'POST', url: `${base}/members`, payload: { username: 'newbie' } })).json().code, 'member_exists')
  const ghost = await owner.request({ method: 'POST', url: `${base}/members`, payload: { username: 'ghost' } })
  t.equal(ghost.statusCode, 404)
  t.equal(ghost.json().code, 'user_not_found')
  const newbie = await signIn(app, 'newbie')
  t.same((await newbie.request({ method: 'GET', url: '/api/projects' })).json().projects.map((p: { id: string }) => p.id), [projectId], 'the new member sees the project')

  const last = await owner.request({ method: 'DELETE', url: `${base}/members/owner1` })
  t.equal(last.statusCode, 409)
  t.equal(last.json().code, 'last_owner')
  t.equal((await owner.request({ method: 'DELETE', url: `${base}/members/newbie` })).statusCode, 204)
  const gone = await newbie.request({ method: 'GET', url: base })
  t.equal(gone.statusCode, 404, 'a removed member no longer sees the project')
  t.equal(gone.json().code, 'project_not_found')
  t.equal((await owner.request({ method: 'DELETE', url: `${base}/members/newbie` })).json().code, 'user_not_found')

  t.equal((await owner.request({ method: 'POST', url: `${base}/members`, payload: { username: 'member1', role: 'owner' } })).json().code, 'member_exists')
})
