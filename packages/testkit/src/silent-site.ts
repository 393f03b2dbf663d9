import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

interface Teardown { teardown: (fn: () => unknown) => void }

/**
 * A site on 127.0.0.1 that takes every request and never answers it: a crawl of it runs until it is
 * stopped. `asked` counts the requests it holds. Its connections and the server close when the test ends.
 */
export async function silentSite (t: Teardown): Promise<{ url: string, asked: () => number }> {
  const held: ServerResponse[] = []
  const server = createServer((_req, res) => { held.push(res) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    for (const res of held) res.destroy()
    server.close()
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, asked: () => held.length }
}
