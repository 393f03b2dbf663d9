import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type pg from 'pg'
import { createKey, createProject, getProject } from '@chatsearch/auth'

export interface DemoCredentials {
  projectId: string
  chatKey: string
  searchKey: string
}

/**
 * The demo project of a first start. Keys are stored only as hashes in the database, so the demo
 * keys are also kept in DATA_DIR/demo-credentials.json (mode 600) to be shown again on later starts.
 */
export async function ensureDemoProject (db: pg.Pool, dataDir: string): Promise<{ demo: DemoCredentials, created: boolean }> {
  await mkdir(dataDir, { recursive: true })
  const file = join(dataDir, 'demo-credentials.json')
  if (existsSync(file)) {
    const saved = JSON.parse(await readFile(file, 'utf8')) as DemoCredentials
    if (await getProject(db, saved.projectId) !== undefined) return { demo: saved, created: false }
  }
  const project = await createProject(db, 'Demo shop')
  const demo: DemoCredentials = {
    projectId: project.id,
    chatKey: (await createKey(db, project.id, 'chat', 'demo')).key,
    searchKey: (await createKey(db, project.id, 'search', 'demo')).key
  }
  await writeFile(file, JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 })
  return { demo, created: true }
}

export function banner (demo: DemoCredentials, chatUrl: string, searchUrl: string): string {
  const auth = (key: string) => `-H 'Authorization: Bearer ${key}'`
  const json = "-H 'Content-Type: application/json'"
  return `
Chat and Search Service is running
  chat    ${chatUrl}    (docs: ${chatUrl}/docs)
  search  ${searchUrl}    (docs: ${searchUrl}/docs)

Demo project ${demo.projectId}
  chat key    ${demo.chatKey}
  search key  ${demo.searchKey}

Try it:
  curl -s ${chatUrl}/newUserMessage ${auth(demo.chatKey)} ${json} \\
    -d '{"user_message":"Hi! Do you have waterproof hiking boots?","consumer_id":"demo-user"}'
  curl -s ${chatUrl}/newUserMessage ${auth(demo.chatKey)} ${json} \\
    -d '{"user_message":"How long does shipping take?","consumer_id":"demo-user"}'
  curl -s '${chatUrl}/latestConsumerChatId?consumer_id=demo-user' ${auth(demo.chatKey)}
  curl -s '${chatUrl}/listAllProjectConsumerChats?consumer_id=demo-user' ${auth(demo.chatKey)}
  curl -s '${chatUrl}/readConversation?chat_id=<chat_id from above>' ${auth(demo.chatKey)}
  curl -s ${chatUrl}/listAllProjectChats ${auth(demo.chatKey)}
  curl -s ${searchUrl}/search ${auth(demo.searchKey)} ${json} \\
    -d '{"search_term":"waterproof hiking boots","filters":"price < 150 AND in_stock = true","facets":["brand","category"],"limit":5}'
  curl -s ${searchUrl}/autocomplete ${auth(demo.searchKey)} ${json} -d '{"autocomplete_term":"head"}'
  curl -s ${searchUrl}/knowledge/search ${auth(demo.searchKey)} ${json} -d '{"query":"how long does shipping take?"}'
  curl -s ${searchUrl}/knowledge/documents ${auth(demo.searchKey)}

Press Ctrl-C to stop.
`
}
