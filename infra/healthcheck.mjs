// Container health probe: `node healthcheck.mjs [/healthz|/readyz]` exits 0 when the service in this
// container answers 200 on that path, 1 otherwise. Node's own fetch, so the image needs no curl.
// The service is named by SERVICE (chat, search or console, set by infra/Dockerfile); its port is read
// from CHAT_PORT, SEARCH_PORT or CONSOLE_PORT as the service itself reads it.
const defaults = { chat: 3001, search: 3002, console: 3000 }
const service = process.env.SERVICE ?? ''
const path = process.argv[2] ?? '/healthz'
if (!(service in defaults) || !/^\/[a-z]+$/.test(path)) {
  process.stderr.write('usage: SERVICE=chat|search|console node healthcheck.mjs [/healthz|/readyz]\n')
  process.exit(2)
}
const port = process.env[`${service.toUpperCase()}_PORT`] || defaults[service]

try {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(4000) })
  if (!response.ok) process.stderr.write(`${path}: ${response.status} ${await response.text()}\n`)
  process.exit(response.ok ? 0 : 1)
} catch (err) {
  process.stderr.write(`${path}: ${err.cause?.code ?? err.message}\n`)
  process.exit(1)
}
