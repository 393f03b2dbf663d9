// The chat panel, loaded by the loader when the shopper first opens the chat: a custom element with
// its own Shadow DOM, so neither the shop's styles nor ours leak across.
import type { Citation, Rating } from '@chatsearch/contracts'
import type { WidgetConfig } from './config.js'
import { Client, WidgetError, type Failure, type Shown } from './client.js'
import { segments, safeHref } from './links.js'
import { Memory } from './memory.js'
import { FULL_SCREEN, panelCss, style, themeCss } from './styles.js'
import { texts, type Texts } from './texts.js'

/** How often the panel asks for the team's answers while a conversation is handed off. */
const POLL_MS = 4000

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value)
  node.append(...children)
  return node
}

const SVG = 'http://www.w3.org/2000/svg'
/** A thumb drawn in the text's colour, pointing up or (turned over) down: no emoji font needed, which many systems lack. */
function thumb (down: boolean): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg')
  for (const [name, value] of Object.entries({ viewBox: '0 0 24 24', width: '16', height: '16', 'aria-hidden': 'true', focusable: 'false', fill: 'none', stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' })) svg.setAttribute(name, value)
  if (down) svg.setAttribute('transform', 'rotate(180)')
  const path = document.createElementNS(SVG, 'path')
  path.setAttribute('d', 'M7 10v11M7 10H4v11h3M7 10l4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.1 21H7')
  svg.append(path)
  return svg
}

/** Text with its http(s) URLs as links; nothing from the network is ever parsed as HTML. */
function linked (text: string): Node[] {
  return segments(text).map((s) => s.href === undefined ? document.createTextNode(s.text) : el('a', { href: s.href, target: '_blank', rel: 'noopener noreferrer' }, s.text))
}

export class ChatPanel extends HTMLElement {
  private config!: WidgetConfig
  private t!: Texts
  private memory!: Memory
  private client!: Client
  private root!: ShadowRoot
  private panel!: HTMLElement
  private log!: HTMLElement
  private status!: HTMLElement
  private input!: HTMLTextAreaElement
  private sendButton!: HTMLButtonElement
  private shown = new Set<string>()
  private busy = false
  private loaded = false
  private poll: ReturnType<typeof setTimeout> | undefined

  /** Called once by the loader, before open(). */
  setup (config: WidgetConfig): void {
    this.config = config
    this.t = texts[config.lang]
    this.memory = new Memory(config.key, config.identity?.consumerId)
    this.client = new Client(config, () => this.memory.get().token)
    this.dataset.position = config.position
    this.root = this.attachShadow({ mode: 'open' })
    this.log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': this.t.title })
    this.status = el('p', { class: 'st', role: 'status' })
    this.input = el('textarea', { id: 'in', rows: '2', maxlength: '8000', placeholder: this.t.placeholder, autocomplete: 'off' })
    this.sendButton = el('button', { class: 's', type: 'submit' }, this.t.send)
    const form = el('form', {}, el('label', { class: 'sr', for: 'in' }, this.t.placeholder), this.input, this.sendButton)
    const close = el('button', { class: 'x', type: 'button', 'aria-label': this.t.close }, '×')
    this.panel = el('section', { class: 'p', role: 'dialog', 'aria-labelledby': 'tt', hidden: '' },
      el('header', {}, el('h2', { id: 'tt' }, this.t.title), close), this.log, this.status, form)
    style(this.root, themeCss(config.color) + panelCss)
    this.root.append(this.panel)

    close.addEventListener('click', () => { this.close() })
    // A phone turned, a window narrowed: the panel becomes a modal dialog, or stops being one, with the screen.
    window.matchMedia(FULL_SCREEN).addEventListener('change', () => { this.markModal() })
    this.panel.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { e.preventDefault(); this.close() } else if (e.key === 'Tab' && this.fillsScreen()) this.keepFocus(e)
    })
    form.addEventListener('submit', (e) => { e.preventDefault(); this.send().catch(() => {}) })
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); this.send().catch(() => {}) }
    })
  }

  /**
   * The console's live preview: the panel open in place (not fixed to the window) with a sample
   * exchange, sending nothing.
   */
  preview (sample: { question: string, answer: string, source: { title: string, url: string } }): void {
    this.dataset.preview = ''
    this.loaded = true
    this.panel.hidden = false
    this.greet()
    this.bubble('user').append(sample.question)
    const node = this.bubble('assistant')
    node.append(...linked(sample.answer))
    this.finish(node, [{ source: 'faq', reference: 'sample', confidence: 1, title: sample.source.title, url: sample.source.url }], undefined)
    this.input.disabled = true
    this.sendButton.disabled = true
  }

  open (): void {
    this.panel.hidden = false
    this.markModal()
    this.input.focus()
    if (!this.loaded) {
      this.loaded = true
      this.restore().catch(() => {})
    } else if (this.memory.get().handoff === true) this.schedulePoll()
  }

  /** On a narrow screen the panel covers the page (styles.ts): a modal dialog, which Tab does not leave. */
  private markModal (): void {
    this.panel.setAttribute('aria-modal', String(this.fillsScreen()))
  }

  /** Whether the panel covers the page: a narrow screen (the media query of styles.ts), not the console's preview. */
  private fillsScreen (): boolean {
    return this.dataset.preview === undefined && window.matchMedia(FULL_SCREEN).matches
  }

  /** Tab from the panel's last control goes to its first, Shift+Tab from its first to its last: never to the page it covers. */
  private keepFocus (e: KeyboardEvent): void {
    const controls = [...this.panel.querySelectorAll<HTMLElement>('button, a[href], textarea, input, select, [tabindex]:not([tabindex="-1"])')]
      .filter((c) => !(c as HTMLButtonElement).disabled && c.getClientRects().length > 0)
    const first = controls[0]
    const last = controls[controls.length - 1]
    if (first === undefined || last === undefined) return
    const active = this.root.activeElement
    if (e.shiftKey ? active === first : active === last) {
      e.preventDefault()
      if (e.shiftKey) last.focus()
      else first.focus()
    }
  }

  close (): void {
    if (this.panel.hidden) return
    this.panel.hidden = true
    clearTimeout(this.poll)
    this.dispatchEvent(new CustomEvent('chatsearch-close', { bubbles: true, composed: true }))
  }

  /** The conversation of an earlier page load, if any; else the greeting. */
  private async restore (): Promise<void> {
    const chatId = this.memory.get().chatId
    if (chatId === undefined) { this.greet(); return }
    try {
      const messages = await this.client.read(chatId)
      this.greet()
      for (const m of messages) this.show(m)
      this.showHandoff()
      if (this.memory.get().handoff === true) this.schedulePoll()
    } catch (err) {
      if (err instanceof WidgetError && err.failure === 'chat_gone') this.memory.forgetChat()
      this.greet()
      if (!(err instanceof WidgetError && err.failure === 'chat_gone')) this.fail(err)
    }
  }

  private greet (): void {
    if (this.log.childElementCount > 0) return
    this.log.append(el('div', { class: 'm assistant' }, this.config.greeting ?? this.t.greeting))
  }

  private bubble (role: Shown['role'], teamMember?: string): HTMLElement {
    const who = role === 'user' ? this.t.you : role === 'team' ? (teamMember === undefined ? this.t.team : `${this.t.team} (${teamMember})`) : this.t.assistant
    const node = el('div', { class: `m ${role}` }, el('span', { class: role === 'team' ? 'who' : 'who sr' }, who))
    this.log.append(node)
    return node
  }

  /** One message of the conversation as read back, once. */
  private show (m: Shown): void {
    if (this.shown.has(m.id)) return
    this.shown.add(m.id)
    const node = this.bubble(m.role, m.teamMember)
    node.append(...linked(m.text))
    if (m.role !== 'user') this.finish(node, m.citations, m.id)
    this.scrollDown()
  }

  /** Sources and the thumbs under a reply. */
  private finish (node: HTMLElement, citations: Citation[], msgId: string | undefined): void {
    const links = citations.flatMap((c) => {
      const href = safeHref(c.url)
      const label = c.title ?? c.reference
      return [el('li', {}, href === undefined ? label : el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, label))]
    })
    if (links.length > 0) node.append(el('ul', { class: 'src', 'aria-label': this.t.sources }, ...links))
    if (msgId !== undefined) node.append(this.thumbs(msgId))
  }

  private thumbs (msgId: string): HTMLElement {
    const given = this.memory.get().ratings?.[msgId]
    const button = (rating: Rating, label: string) =>
      el('button', { type: 'button', 'aria-label': label, title: label, 'aria-pressed': String(given === rating), 'data-rating': rating }, thumb(rating === 'down'))
    const up = button('up', this.t.helpful)
    const down = button('down', this.t.notHelpful)
    const note = el('span', { class: 'note', 'aria-live': 'polite' })
    const group = el('div', { class: 'rate', role: 'group', 'aria-label': this.t.rate }, up, down, note)
    for (const b of [up, down]) {
      b.addEventListener('click', () => {
        const rating = b.dataset.rating === 'up' ? 'up' : 'down'
        const chatId = this.memory.get().chatId
        if (chatId === undefined) return
        this.client.rate(chatId, msgId, rating).then(() => {
          up.setAttribute('aria-pressed', String(rating === 'up'))
          down.setAttribute('aria-pressed', String(rating === 'down'))
          note.textContent = this.t.thanks
          this.memory.set({ ratings: { ...this.memory.get().ratings, [msgId]: rating } })
        }, (err: unknown) => { this.fail(err) })
      })
    }
    return group
  }

  private async send (): Promise<void> {
    const message = this.input.value.trim()
    if (message === '' || this.busy) return
    this.busy = true
    this.sendButton.disabled = true
    this.setStatus('')
    this.input.value = ''
    const mine = this.bubble('user')
    mine.append(message)
    const node = this.bubble('assistant')
    node.setAttribute('aria-busy', 'true')
    const text = el('span', { class: 'dots' })
    node.append(text)
    this.scrollDown()
    let chatId = this.memory.get().chatId
    try {
      let reply
      try {
        reply = await this.client.send(message, chatId, {
          onDelta: (delta) => { text.classList.remove('dots'); text.append(delta); this.scrollDown() },
          onReset: () => { text.textContent = '' }
        })
      } catch (err) {
        // The conversation is gone (deleted by the shop's team): the message starts a new one.
        if (!(err instanceof WidgetError && err.failure === 'chat_gone') || chatId === undefined) throw err
        this.memory.forgetChat()
        chatId = undefined
        text.textContent = ''
        reply = await this.client.send(message, undefined, { onDelta: (delta) => { text.append(delta) }, onReset: () => { text.textContent = '' } })
      }
      this.memory.set({ chatId: reply.chatId, handoff: reply.handoff, ...(reply.consumerToken === undefined ? {} : { token: reply.consumerToken }) })
      text.classList.remove('dots')
      text.replaceChildren(...linked(reply.text))
      node.setAttribute('aria-busy', 'false')
      // The reply's msg_id (for the thumbs) is in the conversation as stored.
      const stored = await this.client.read(reply.chatId).catch(() => [])
      const last = stored.filter((m) => m.role === 'assistant').at(-1)
      const asked = stored.filter((m) => m.role === 'user').at(-1)
      for (const m of [last, asked]) if (m !== undefined) this.shown.add(m.id)
      this.finish(node, reply.citations, last?.id)
      // A team member's answer written since the last look appears too.
      for (const m of stored) this.show(m)
      this.showHandoff()
      if (reply.handoff) this.schedulePoll()
    } catch (err) {
      node.remove()
      mine.remove()
      this.input.value = message
      this.fail(err)
    } finally {
      node.removeAttribute('aria-busy')
      this.busy = false
      this.sendButton.disabled = false
      this.scrollDown()
    }
  }

  private showHandoff (): void {
    if (this.memory.get().handoff === true) this.setStatus(this.t.handoff)
  }

  /** While handed off, the team's answers appear as they are written. */
  private schedulePoll (): void {
    clearTimeout(this.poll)
    this.poll = setTimeout(() => {
      const chatId = this.memory.get().chatId
      if (chatId === undefined || this.panel.hidden || this.memory.get().handoff !== true) return
      this.client.read(chatId).then((messages) => { for (const m of messages) this.show(m) }, () => {}).finally(() => {
        if (!this.busy) this.schedulePoll()
      })
    }, POLL_MS)
  }

  private fail (err: unknown): void {
    const failure: Failure = err instanceof WidgetError ? err.failure : 'failed'
    const words: Record<Failure, string> = { not_allowed: this.t.notAllowed, unavailable: this.t.unavailable, too_many: this.t.tooMany, chat_gone: this.t.failed, failed: this.t.failed }
    this.setStatus(words[failure], true)
  }

  private setStatus (message: string, error = false): void {
    this.status.textContent = message
    this.status.classList.toggle('err', error)
    this.status.setAttribute('role', error ? 'alert' : 'status')
  }

  private scrollDown (): void { this.log.scrollTop = this.log.scrollHeight }
}

if (customElements.get('chatsearch-chat') === undefined) customElements.define('chatsearch-chat', ChatPanel)

declare global {
  interface HTMLElementTagNameMap { 'chatsearch-chat': ChatPanel }
}
