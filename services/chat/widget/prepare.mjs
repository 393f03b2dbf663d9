// `prepare`: pnpm runs it on every install, so a fresh clone serves the widget after `pnpm install`.
// A production install (`pnpm deploy --prod`, as the images are built) has no Vite: it ships dist/
// as the full install built it, and building again there would fail the install.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
let viteInstalled = true
try {
  require.resolve('vite/package.json')
} catch {
  viteInstalled = false
}

if (viteInstalled) {
  await import('./build.mjs')
} else if (existsSync(new URL('dist/loader.js', import.meta.url))) {
  console.log('chat-widget: production install (no Vite); dist/ is used as built')
} else {
  console.warn('chat-widget: production install without a built dist/; build it with the dev dependencies installed (pnpm install, then pnpm --filter @chatsearch/chat-widget build)')
}
