import { defineConfig } from 'vite'

// The console's JSON API, for `pnpm dev` (the built app is served by the console itself).
const apiTarget = process.env.CONSOLE_API_URL ?? 'http://127.0.0.1:3000'

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The console's Content Security Policy allows only the app's own files: no inline assets or scripts.
    assetsInlineLimit: 0
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } }
  }
})
