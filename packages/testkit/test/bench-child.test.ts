import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'

t.test('a child reports the port it listens on to its parent, which then reaches it', async (t) => {
  const child = fork(fileURLToPath(new URL('./fixtures/port-child.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] })
  t.teardown(() => { child.kill() })
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { port: number }))
    child.once('exit', (code) => reject(new Error(`exited with ${String(code)}`)))
  })
  t.ok(Number.isInteger(port) && port > 0, `a port (${port})`)
  t.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), 'hello')
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.disconnect()
  t.equal(await exited, 0, 'it leaves when the parent goes')
})
