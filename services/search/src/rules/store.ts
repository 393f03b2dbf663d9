import type { SearchRule } from '@chatsearch/contracts'
import type { StoreSize, Queryable } from '@chatsearch/shell'
import { compileRule, type CompiledRule } from './match.js'

/**
 * How long a process keeps a project's rules before reading them again. A PUT /rules applies at once
 * on the replica that took it; the others apply it within this time.
 */
export const RULES_CACHE_TTL_MS = 2000
/** Rules kept in the process, as characters of their JSON text: a project's are at most one request body (1 MiB). */
const MAX_BYTES = 16 * 1024 * 1024
/** Projects whose rules are kept, a project without rules included. */
const MAX_ENTRIES = 10_000

interface Entry {
  rules: Promise<CompiledRule[]>
  expires: number
  /** Characters of the JSON text read, once it is. */
  bytes: number
}

/**
 * The projects' search rules, in PostgreSQL (table search_rules: one row per project, the list as
 * JSON), which both engines and every replica share. Each search reads them, so each process keeps
 * a project's list for RULES_CACHE_TTL_MS, compiled for matching; concurrent reads of one project
 * share one query, and a failed read is not kept. At most MAX_BYTES and MAX_ENTRIES are kept:
 * expired lists go first, then the oldest.
 */
export class RulesStore {
  readonly #db: Queryable
  readonly #ttlMs: number
  readonly #entries = new Map<string, Entry>()
  #bytes = 0

  constructor (db: Queryable, ttlMs = RULES_CACHE_TTL_MS) {
    this.#db = db
    this.#ttlMs = ttlMs
  }

  /** What the process keeps (for `memory_store_entries` and `memory_store_bytes`). */
  get size (): StoreSize {
    return { entries: this.#entries.size, bytes: this.#bytes }
  }

  /** The project's rules in precedence order (none when it never set any). */
  async read (projectId: string, now = Date.now()): Promise<CompiledRule[]> {
    const kept = this.#entries.get(projectId)
    if (kept !== undefined && kept.expires > now) return await kept.rules
    this.#drop(projectId)
    if (this.#entries.size >= MAX_ENTRIES) this.#evict(now)
    const loading = this.#load(projectId)
    const entry: Entry = { rules: loading.then((loaded) => loaded.rules), expires: now + this.#ttlMs, bytes: 0 }
    this.#entries.set(projectId, entry)
    loading.then(({ bytes }) => {
      // Replaced or dropped meanwhile (a PUT): its size is no longer the store's.
      if (this.#entries.get(projectId) !== entry) return
      entry.bytes = bytes
      this.#bytes += bytes
      if (this.#bytes > MAX_BYTES) this.#evict(now)
    }, () => {
      if (this.#entries.get(projectId) === entry) this.#entries.delete(projectId)
    })
    return await entry.rules
  }

  /**
   * Replaces the project's rules (already checked and in their stored form, see rule.ts). The next
   * read in this process finds them; a read that started before may still answer the old ones.
   */
  async replace (projectId: string, rules: SearchRule[]): Promise<void> {
    await this.#db.query(
      `INSERT INTO search_rules (project_id, rules, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (project_id) DO UPDATE SET rules = EXCLUDED.rules, updated_at = EXCLUDED.updated_at`,
      [projectId, JSON.stringify(rules)])
    this.#drop(projectId)
  }

  async #load (projectId: string): Promise<{ rules: CompiledRule[], bytes: number }> {
    const { rows } = await this.#db.query<{ rules: string }>('SELECT rules::text AS rules FROM search_rules WHERE project_id = $1', [projectId])
    const text = rows[0]?.rules ?? '[]'
    return { rules: (JSON.parse(text) as SearchRule[]).map(compileRule), bytes: text.length }
  }

  #drop (projectId: string) {
    const entry = this.#entries.get(projectId)
    if (entry === undefined) return
    this.#entries.delete(projectId)
    this.#bytes -= entry.bytes
  }

  /** Drops the expired lists, then the oldest (a Map keeps insertion order) until within both caps. */
  #evict (now: number) {
    for (const [projectId, entry] of this.#entries) if (entry.expires <= now) this.#drop(projectId)
    for (const projectId of this.#entries.keys()) {
      if (this.#entries.size < MAX_ENTRIES && this.#bytes <= MAX_BYTES) break
      this.#drop(projectId)
    }
  }
}
