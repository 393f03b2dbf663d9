// The one script a shop embeds: it reads its data- attributes, draws the launcher, and loads the
// panel (panel.js, beside it) only when the shopper first opens the chat.
import { readConfig, type WidgetConfig } from './config.js'
import { launcherCss, style, themeCss } from './styles.js'
import { texts } from './texts.js'
import type { ChatPanel } from './panel.js'

declare const __PANEL_VERSION__: string

const ICON = '<svg viewBox="0 0 24 24" aria-hidden="true" fill="currentColor"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>'

function ownScript (): HTMLScriptElement | null {
  const current = document.currentScript
  if (current instanceof HTMLScriptElement) return current
  return document.querySelector<HTMLScriptElement>('script[data-key][src*="/widget/v1/loader.js"]')
}

function start (script: HTMLScriptElement): void {
  const config = readConfig((n) => script.getAttribute(n), script.src, document.documentElement.lang,
    (c) => typeof CSS !== 'undefined' && CSS.supports('color', c), __PANEL_VERSION__)
  if ('error' in config) { console.error(`chatsearch widget: ${config.error}`); return }
  mount(config)
}

function mount (config: WidgetConfig): void {
  const t = texts[config.lang]
  const host = document.createElement('chatsearch-launcher')
  host.dataset.position = config.position
  const root = host.attachShadow({ mode: 'open' })
  const button = document.createElement('button')
  button.className = 'l'
  button.type = 'button'
  button.setAttribute('aria-label', t.open)
  button.setAttribute('aria-expanded', 'false')
  button.setAttribute('aria-haspopup', 'dialog')
  button.innerHTML = ICON
  style(root, themeCss(config.color) + launcherCss)
  root.append(button)
  document.body.append(host)

  let panel: Promise<ChatPanel> | undefined
  const load = (): Promise<ChatPanel> => new Promise((resolve, reject) => {
    const s = document.createElement('script')
    s.src = config.panelUrl
    s.async = true
    s.onerror = () => { reject(new Error('the chat panel could not be loaded')) }
    s.onload = () => {
      customElements.whenDefined('chatsearch-chat').then(() => {
        const p = document.createElement('chatsearch-chat')
        p.setup(config)
        p.addEventListener('chatsearch-close', () => {
          button.setAttribute('aria-expanded', 'false')
          button.focus()
        })
        document.body.append(p)
        resolve(p)
      }, reject)
    }
    document.head.append(s)
  })

  button.addEventListener('click', () => {
    button.setAttribute('aria-busy', 'true')
    panel ??= load()
    panel.then((p) => {
      button.removeAttribute('aria-busy')
      button.setAttribute('aria-expanded', 'true')
      p.open()
    }, (err: unknown) => {
      panel = undefined
      button.removeAttribute('aria-busy')
      console.error('chatsearch widget:', err)
    })
  })
}

const script = ownScript()
if (script === null) console.error('chatsearch widget: the loader cannot find its <script> tag')
else if (document.body === null) document.addEventListener('DOMContentLoaded', () => { start(script) })
else start(script)
