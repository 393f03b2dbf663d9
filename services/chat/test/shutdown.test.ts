import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { harness, type Harness, type Tenant } from './helpers.js'
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.js'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))

interface Server { child: ChildProcess, url: string, output: () => string, exited: Promise<number | null> }

/** `node src/server.ts` as an operator runs it, on the test's database, with a fake model. */
async function startServer (t: { teardown: (fn: () => unknown) => void }, h: Harness, fake: FakeOpenAi, graceMs: number): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: h.databaseUrl,
    HOST: '127.0.0.1',
    // Port 0, read back from the log: a port picked here could be taken by another test's process
    // before the server, which compiles its sources first, listens (EADDRINUSE failed a CI run).
    CHAT_PORT: '0',
    LLM_BASE_URL: fake.baseUrl,
    LLM_MODEL: 'fake',
    LLM_RETRIES: '0',
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: String(graceMs)
  }
  delete env.SEARCH_URL
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: serviceDir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  let output = ''
  child.stdout.on('data', (c: Buffer) => { output += c.toString() })
  child.stderr.on('data', (c: Buffer) => { output += c.toString() })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const deadline = Date.now() + 120_000
  let listening: RegExpExecArray | null = null
  while ((listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)) === null) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, url: listening[1]!, output: () => output, exited }
}

const within = <T>(promise: Promise<T>, ms: number, what: string) => Promise.race([
  promise,
  new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))
])

/** Starts a streamed turn and resolves once its first delta has arrived, with a way to read the rest. */
async function startStream (url: string, shop: Tenant, consumer: string) {
  const res = await fetch(`${url}/newUserMessage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${shop.key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify({ user_message: 'hello there', consumer_id: consumer })
  })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!text.includes('event: delta')) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the stream ended before its first delta: ${text}`)
    text += decoder.decode(value, { stream: true })
  }
  const rest = async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return text
        text += decoder.decode(value, { stream: true })
      }
    } catch {
      return text + '\n[cut]'
    }
  }
  return { status: res.status, rest }
}

const refusedCode = (url: string) => fetch(`${url}/healthz`).then(
  (res) => `answered ${res.status}`,
  (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message
)

// Each server process loads the classifier's model before it listens: slow on a busy machine.
t.setTimeout(300_000)

t.test('graceful shutdown of a server process', async (t) => {
  const h = await harness(t)
  const shop = await h.tenant()

  t.test('SIGTERM: a streamed reply in flight completes, new connections are refused, the process exits 0', async (t) => {
    const fake = await startFakeOpenAi(t)
    const server = await startServer(t, h, fake, 10_000)

    // About 2.4 s of reply after the signal: well within the grace period.
    fake.script({ chunks: Array.from({ length: 12 }, (_, i) => `word${i} `), chunkDelayMs: 200 })
    const stream = await startStream(server.url, shop, 'drained')
    t.equal(stream.status, 200)
    server.child.kill('SIGTERM')
    // The signal takes a moment to arrive on a busy machine; the stream still has seconds to go.
    let refused = await refusedCode(server.url)
    for (let i = 0; i < 20 && refused !== 'ECONNREFUSED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      refused = await refusedCode(server.url)
    }
    t.equal(refused, 'ECONNREFUSED', 'no new connection is accepted while draining')

    const text = await within(stream.rest(), 15_000, 'the stream')
    t.match(text, /event: done\ndata: \{"assistant_response":"word0 word1 .* word11"/, 'the stream ends with its done event')
    t.notMatch(text, /\[cut\]/)
    t.equal(await within(server.exited, 15_000, 'exit'), 0, 'exits 0')
    const { rows } = await h.db.query('SELECT count(*)::int AS n FROM messages m JOIN chats c ON c.project_id = m.project_id AND c.id = m.chat_id WHERE c.consumer_id = $1', ['drained'])
    t.equal(rows[0].n, 2, 'the turn was stored before the pool closed')
    t.match(server.output(), /shutting down: finishing the requests in flight/)
  })

  t.test('SIGTERM: a stream that outlasts SHUTDOWN_GRACE_MS is cut and the process still exits 0', async (t) => {
    const fake = await startFakeOpenAi(t)
    const server = await startServer(t, h, fake, 500)

    fake.script({ chunks: Array.from({ length: 40 }, (_, i) => `word${i} `), chunkDelayMs: 200 })
    const stream = await startStream(server.url, shop, 'cut')
    const signalled = Date.now()
    server.child.kill('SIGTERM')
    const text = await within(stream.rest(), 15_000, 'the stream')
    t.notMatch(text, /event: done/, 'cut before its end')
    t.equal(await within(server.exited, 15_000, 'exit'), 0)
    const took = Date.now() - signalled
    t.ok(took < 5000, `stopped ${took} ms after the signal`)
    const { rows } = await h.db.query('SELECT count(*)::int AS n FROM chats WHERE consumer_id = $1', ['cut'])
    t.equal(rows[0].n, 0, 'a cut turn is not stored')
    t.match(server.output(), /grace period over/)
  })
})
