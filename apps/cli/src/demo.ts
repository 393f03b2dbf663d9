import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type pg from 'pg'
import { createKey, createProject, getProject, randomBase62 } from '@chatsearch/auth'
import { addMember, createUser, findUser, setPassword } from '@chatsearch/console'

export interface DemoCredentials {
  projectId: string
  chatKey: string
  searchKey: string
  /** The console's demo sign-in (user `demo`, owner of the demo project); absent in files of earlier versions. */
  consoleUsername?: string
  consolePassword?: string
  /** The demo's widget key, bound to the sample shop page's origins; absent in files of earlier versions. */
  widgetKey?: string
  widgetKeyId?: string
}

const credentialsFile = (dataDir: string) => join(dataDir, 'demo-credentials.json')

/**
 * The demo project of a first start. Keys are stored only as hashes in the database, so the demo
 * keys are also kept in DATA_DIR/demo-credentials.json (mode 600) to be shown again on later starts.
 */
export async function ensureDemoProject (db: pg.Pool, dataDir: string): Promise<{ demo: DemoCredentials, created: boolean }> {
  await mkdir(dataDir, { recursive: true })
  const file = credentialsFile(dataDir)
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

/**
 * The console user `demo`, owner of the demo project, with a random password kept beside the demo
 * keys. A password the file does not hold (a data directory of an earlier version) is set anew.
 */
export async function ensureDemoUser (db: pg.Pool, dataDir: string, demo: DemoCredentials): Promise<DemoCredentials & Required<Pick<DemoCredentials, 'consoleUsername' | 'consolePassword'>>> {
  const username = demo.consoleUsername ?? 'demo'
  let password = demo.consolePassword
  const user = await findUser(db, username)
  if (user === undefined || password === undefined) {
    password ??= randomBase62(20)
    if (user === undefined) await createUser(db, username, password)
    else await setPassword(db, username, password)
  }
  await addMember(db, demo.projectId, username, 'owner')
  const saved = { ...demo, consoleUsername: username, consolePassword: password }
  if (demo.consolePassword !== password || demo.consoleUsername !== username) {
    await writeFile(credentialsFile(dataDir), JSON.stringify(saved, null, 2) + '\n', { mode: 0o600 })
  }
  return saved
}

/** Keeps the demo credentials (mode 600) for later starts. */
export async function saveDemoCredentials (dataDir: string, demo: DemoCredentials): Promise<void> {
  await writeFile(credentialsFile(dataDir), JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 })
}

export function banner (demo: Required<DemoCredentials>, chatUrl: string, searchUrl: string, consoleUrl: string, shopUrl: string): string {
  const auth = (key: string) => `-H 'Authorization: Bearer ${key}'`
  const json = "-H 'Content-Type: application/json'"
  return `
Chat and Search Service is running
  console ${consoleUrl}
  chat    ${chatUrl}    (docs: ${chatUrl}/docs)
  search  ${searchUrl}    (docs: ${searchUrl}/docs)

Demo project ${demo.projectId}
  console sign-in  ${demo.consoleUsername} / ${demo.consolePassword}
  chat key    ${demo.chatKey}
  search key  ${demo.searchKey}
  widget key  ${demo.widgetKey}

Sample shop page with the chat widget: ${shopUrl}

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
