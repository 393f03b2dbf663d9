// The conversation kept across page loads: this browser's consumer token and its chat, per key (and
// per verified customer), in localStorage; in memory where the page may not use it.
import type { Rating } from '@chatsearch/contracts'

export interface Kept { token?: string, chatId?: string, handoff?: boolean, ratings?: Record<string, Rating> }

const MAX_RATINGS = 200

function parse (raw: string | null): Kept {
  if (raw === null) return {}
  try {
    const v: unknown = JSON.parse(raw)
    if (typeof v !== 'object' || v === null) return {}
    const o = v as Record<string, unknown>
    const ratings: Record<string, Rating> = {}
    if (typeof o.ratings === 'object' && o.ratings !== null) {
      for (const [id, r] of Object.entries(o.ratings).slice(-MAX_RATINGS)) if (r === 'up' || r === 'down') ratings[id] = r
    }
    return {
      ...(typeof o.token === 'string' ? { token: o.token } : {}),
      ...(typeof o.chatId === 'string' ? { chatId: o.chatId } : {}),
      handoff: o.handoff === true,
      ratings
    }
  } catch {
    return {}
  }
}

export class Memory {
  private kept: Kept
  private readonly name: string

  constructor (key: string, consumerId: string | undefined) {
    this.name = `chatsearch-widget:${key}${consumerId === undefined ? '' : `:${consumerId}`}`
    let raw: string | null = null
    try { raw = localStorage.getItem(this.name) } catch {}
    this.kept = parse(raw)
  }

  get (): Readonly<Kept> { return this.kept }

  set (change: Partial<Kept>): void {
    this.kept = { ...this.kept, ...change }
    try { localStorage.setItem(this.name, JSON.stringify(this.kept)) } catch {}
  }

  /** A conversation the service no longer knows (deleted, another key): start a new one. */
  forgetChat (): void { this.set({ chatId: undefined, handoff: false, ratings: {} }) }
}
