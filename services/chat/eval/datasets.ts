// The evaluation's datasets (services/chat/eval/help/<name>/, catalogs/<name>/, splits.json): loaded and
// checked here, by `pnpm eval` (run.ts) and by test/eval-data.test.ts, so that both read them alike.
//
// help/<name>/        a help corpus: SOURCE.md; pages/<id>.md (front matter `title:` and `url:` between
//                     `---` lines, then Markdown); faq.json [{id, question, answer, url?}] (optional);
//                     questions.json [{id, split, category, say, sources?, facts?, classification}];
//                     conversations.json [{id, split, category, turns: [{say, expect}]}] (optional).
// catalogs/<name>/    a catalog: SOURCE.md; items.json; settings.json {searchableAttributes,
//                     filterableAttributes, facetableAttributes}; requests.json [{id, split, say,
//                     relevant: [item id], classification}] (`relevant: []`: the catalog has nothing that
//                     fits); conversations.json.
// catalogs/demo/      the project's own demo: items demoCatalogFile, knowledge demoKnowledge() (both of
//                     @chatsearch/search), no items.json or settings.json.
// splits.json         {"heldout": {"help": [name], "catalogs": [name]}}: whole datasets held out; in the
//                     others each entry says "split": "dev" | "heldout".
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { classifications, DOCUMENT_ID_PATTERN } from '@chatsearch/contracts'
import { demoCatalogFile, demoKnowledge, validateDocument, type IndexSettings } from '@chatsearch/search'

export type Split = 'dev' | 'heldout'

/** What facts and `contains_any` are compared after: lower case, plain quotes, no Markdown emphasis, single spaces. */
export const norm = (s: string): string => s.toLowerCase().replace(/[’‘]/g, "'").replace(/[“”]/g, '"').replace(/[_*`]/g, '').replace(/\s+/g, ' ')
export const questionCategories = ['answerable', 'faq', 'problem', 'unanswerable', 'action'] as const
export type QuestionCategory = typeof questionCategories[number]

export interface Page { id: string, title: string, content: string, url: string }
export interface Faq { id: string, question: string, answer: string, url?: string }
export interface Item { id: string, title: string, price: number, rating?: number, [field: string]: unknown }

export interface Question {
  id: string
  split: Split
  category: QuestionCategory
  say: string
  sources?: string[]
  facts?: string[]
  classification: string
}
export interface Request { id: string, split: Split, say: string, relevant: string[], classification: string }
export interface Expect {
  handoff?: boolean
  classification?: string
  cites_catalog?: boolean
  cites_knowledge?: boolean
  cites_source?: string[]
  contains_any?: string[]
  cites_any_of?: string[]
  cites_turn_item?: [number, number]
  contains_price_of_turn_item?: [number, number]
  names_higher_rated?: [number, number, number]
  names_cheaper?: [number, number, number]
  cites_none_of_turn?: number
}
export interface Turn { say: string, expect: Expect }
export interface Conversation { id: string, split: Split, category: string, turns: Turn[] }

export interface Dataset {
  kind: 'help' | 'catalog'
  name: string
  /** `help/<name>` or `catalogs/<name>`: how reports name it. */
  label: string
  dir: string
  /** Named in splits.json: every entry counts as held-out. */
  heldout: boolean
  /** Knowledge pages and FAQ pairs (a help corpus's, or the demo's). */
  pages: Page[]
  faq: Faq[]
  /** Catalog items (none for a help corpus) and their settings (none: inferred, as for the demo). */
  items: Item[]
  settings?: IndexSettings
  questions: Question[]
  requests: Request[]
  conversations: Conversation[]
}

/** An entry's split: held-out whatever it says when its dataset is held out. */
export const splitOf = (dataset: Dataset, entry: { split: Split }): Split => dataset.heldout ? 'heldout' : entry.split

export class DatasetError extends Error {
  override name = 'DatasetError'
}

export const evalDir = fileURLToPath(new URL('./', import.meta.url))
const ID = new RegExp(DOCUMENT_ID_PATTERN)

/**
 * Every dataset under `root` (default: this folder), checked; `only` (names or labels such as
 * `help/saleor`) restricts them. Throws a DatasetError naming the file and the entry at the first problem.
 */
export async function loadDatasets (root: string = evalDir, only?: string[]): Promise<Dataset[]> {
  const heldout = await readSplits(root)
  const wanted = (kind: 'help' | 'catalogs', name: string) => only === undefined || only.includes(name) || only.includes(`${kind}/${name}`)
  const datasets: Dataset[] = []
  for (const name of await subfolders(join(root, 'help'))) {
    if (wanted('help', name)) datasets.push(await loadHelp(join(root, 'help', name), name, heldout.help.includes(name)))
  }
  for (const name of await subfolders(join(root, 'catalogs'))) {
    if (wanted('catalogs', name)) datasets.push(await loadCatalog(join(root, 'catalogs', name), name, heldout.catalogs.includes(name)))
  }
  for (const kind of ['help', 'catalogs'] as const) {
    for (const name of heldout[kind]) {
      if (!existsSync(join(root, kind, name))) throw new DatasetError(`${join(root, 'splits.json')}: heldout.${kind} names ${JSON.stringify(name)}, which is not a folder of ${kind}/`)
    }
  }
  if (heldout.catalogs.includes('demo')) throw new DatasetError(`${join(root, 'splits.json')}: the demo is development data (the shop's demo uses it); it cannot be held out`)
  if (only !== undefined) {
    for (const name of only) {
      if (!datasets.some((d) => d.name === name || d.label === name)) throw new DatasetError(`no dataset ${JSON.stringify(name)} (there are: ${(await datasetLabels(root)).join(', ')})`)
    }
  }
  return datasets
}

/** The datasets' labels (`help/<name>`, `catalogs/<name>`), without loading them. */
export async function datasetLabels (root: string = evalDir): Promise<string[]> {
  return [...(await subfolders(join(root, 'help'))).map((n) => `help/${n}`), ...(await subfolders(join(root, 'catalogs'))).map((n) => `catalogs/${n}`)]
}

async function readSplits (root: string): Promise<{ help: string[], catalogs: string[] }> {
  const file = join(root, 'splits.json')
  if (!existsSync(file)) return { help: [], catalogs: [] }
  const value = await readJson(file) as { heldout?: { help?: unknown, catalogs?: unknown } }
  const list = (v: unknown, key: string): string[] => {
    if (v === undefined) return []
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new DatasetError(`${file}: heldout.${key} must be a list of dataset names`)
    return v as string[]
  }
  if (typeof value !== 'object' || value === null || typeof value.heldout !== 'object' || value.heldout === null) throw new DatasetError(`${file}: expected {"heldout": {"help": [...], "catalogs": [...]}}`)
  return { help: list(value.heldout.help, 'help'), catalogs: list(value.heldout.catalogs, 'catalogs') }
}

async function subfolders (dir: string): Promise<string[]> {
  if (!existsSync(dir)) return []
  return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort()
}

async function readJson (file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8')
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new DatasetError(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`)
  }
}

async function readList (file: string, optional: boolean): Promise<Array<Record<string, unknown>>> {
  if (!existsSync(file)) {
    if (optional) return []
    throw new DatasetError(`${file}: missing`)
  }
  const value = await readJson(file)
  if (!Array.isArray(value)) throw new DatasetError(`${file}: expected a JSON array`)
  value.forEach((entry, n) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new DatasetError(`${file}: entry ${n} is not an object`)
  })
  return value as Array<Record<string, unknown>>
}

/** Page ids are file names; FAQ ids and item ids follow the catalog's id rule. */
function checkIds (file: string, entries: Array<{ id?: unknown }>, what: string): void {
  const seen = new Set<string>()
  entries.forEach((e, n) => {
    if (typeof e.id !== 'string' || e.id === '') throw new DatasetError(`${file}: ${what} ${n} has no "id"`)
    if (seen.has(e.id)) throw new DatasetError(`${file}: duplicate id ${JSON.stringify(e.id)}`)
    seen.add(e.id)
  })
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')
const isInts = (v: unknown, n: number): boolean => Array.isArray(v) && v.length === n && v.every((x) => Number.isSafeInteger(x) && (x as number) >= 0)

function entryBasics (file: string, e: Record<string, unknown>): string {
  const where = `${file}: ${JSON.stringify(e.id)}`
  if (e.split !== 'dev' && e.split !== 'heldout') throw new DatasetError(`${where}: "split" must be "dev" or "heldout"${e.split === undefined ? ' (missing)' : `, not ${JSON.stringify(e.split)}`}`)
  return where
}

function checkSay (where: string, say: unknown): void {
  if (typeof say !== 'string' || say.trim() === '') throw new DatasetError(`${where}: "say" must be a non-empty string`)
}

function checkClassification (where: string, value: unknown, required: boolean): void {
  if (value === undefined && !required) return
  if (typeof value !== 'string' || !(classifications as readonly string[]).includes(value)) {
    throw new DatasetError(`${where}: "classification" must be one of ${classifications.join(', ')}${value === undefined ? ' (missing)' : `, not ${JSON.stringify(value)}`}`)
  }
}

async function loadHelp (dir: string, name: string, heldout: boolean): Promise<Dataset> {
  if (!existsSync(join(dir, 'SOURCE.md'))) throw new DatasetError(`${join(dir, 'SOURCE.md')}: missing (where the corpus comes from, its licence)`)
  const pagesDir = join(dir, 'pages')
  if (!existsSync(pagesDir)) throw new DatasetError(`${pagesDir}: missing`)
  const pages: Page[] = []
  for (const file of (await readdir(pagesDir)).filter((f) => f.endsWith('.md')).sort()) {
    const path = join(pagesDir, file)
    const id = file.slice(0, -3)
    if (!ID.test(id)) throw new DatasetError(`${path}: a page id (the file name) may hold only letters, digits, - and _`)
    const text = await readFile(path, 'utf8')
    const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text)
    if (fm === null) throw new DatasetError(`${path}: no front matter (title: and url: between --- lines)`)
    const meta = Object.fromEntries(fm[1]!.split(/\r?\n/).map((l) => /^(\w+):\s*(.*)$/.exec(l)).filter((m) => m !== null).map((m) => [m[1]!, m[2]!.trim()]))
    if (meta.title === undefined || meta.title === '' || meta.url === undefined || meta.url === '') throw new DatasetError(`${path}: front matter needs title and url`)
    const content = text.slice(fm[0].length).trim()
    if (content === '') throw new DatasetError(`${path}: no text after the front matter`)
    pages.push({ id, title: meta.title, content, url: meta.url })
  }
  if (pages.length === 0) throw new DatasetError(`${pagesDir}: no pages (<id>.md)`)
  const faqFile = join(dir, 'faq.json')
  const faqRaw = await readList(faqFile, true)
  checkIds(faqFile, faqRaw, 'pair')
  const faq: Faq[] = faqRaw.map((f) => {
    const where = `${faqFile}: ${JSON.stringify(f.id)}`
    if (!ID.test(f.id as string)) throw new DatasetError(`${where}: an id may hold only letters, digits, - and _`)
    if (typeof f.question !== 'string' || f.question.trim() === '' || typeof f.answer !== 'string' || f.answer.trim() === '') throw new DatasetError(`${where}: needs a non-empty "question" and "answer"`)
    if (f.url !== undefined && typeof f.url !== 'string') throw new DatasetError(`${where}: "url" must be a string`)
    return { id: f.id as string, question: f.question, answer: f.answer, ...(f.url === undefined ? {} : { url: f.url as string }) }
  })
  const sources = knowledgeIds(dir, pages, faq)

  const questionsFile = join(dir, 'questions.json')
  const raw = await readList(questionsFile, false)
  checkIds(questionsFile, raw, 'question')
  const questions = raw.map((q) => {
    const where = entryBasics(questionsFile, q)
    checkSay(where, q.say)
    if (!(questionCategories as readonly unknown[]).includes(q.category)) throw new DatasetError(`${where}: "category" must be one of ${questionCategories.join(', ')}`)
    checkClassification(where, q.classification, true)
    const answers = q.category === 'answerable' || q.category === 'problem' || q.category === 'faq'
    for (const key of ['sources', 'facts'] as const) {
      if (q[key] !== undefined && !isStrings(q[key])) throw new DatasetError(`${where}: "${key}" must be a list of strings`)
      if (answers && ((q[key] as string[] | undefined)?.length ?? 0) === 0) throw new DatasetError(`${where}: a question of category ${String(q.category)} needs "${key}"`)
    }
    for (const s of (q.sources as string[] | undefined) ?? []) {
      if (!sources.has(s)) throw new DatasetError(`${where}: source ${JSON.stringify(s)} is no page (pages/${s}.md) and no faq.json id`)
    }
    if (q.category === 'faq' && !(q.sources as string[]).some((s) => faq.some((f) => f.id === s))) throw new DatasetError(`${where}: a faq question needs an faq.json id among its sources`)
    return q as unknown as Question
  })
  const conversations = await loadConversations(join(dir, 'conversations.json'), sources, new Map())
  return { kind: 'help', name, label: `help/${name}`, dir, heldout, pages, faq, items: [], questions, requests: [], conversations }
}

function knowledgeIds (dir: string, pages: Page[], faq: Faq[]): Set<string> {
  const ids = new Set(pages.map((p) => p.id))
  for (const f of faq) {
    if (ids.has(f.id)) throw new DatasetError(`${dir}: ${JSON.stringify(f.id)} is both a page and an FAQ id (one knowledge document would replace the other)`)
    ids.add(f.id)
  }
  return ids
}

async function loadCatalog (dir: string, name: string, heldout: boolean): Promise<Dataset> {
  if (!existsSync(join(dir, 'SOURCE.md'))) throw new DatasetError(`${join(dir, 'SOURCE.md')}: missing (where the catalog comes from, its licence)`)
  let items: Item[]
  let settings: IndexSettings | undefined
  let pages: Page[] = []
  let faq: Faq[] = []
  if (name === 'demo') {
    items = await readItems(fileURLToPath(demoCatalogFile))
    for (const doc of await demoKnowledge() as Array<Record<string, unknown>>) {
      if (typeof doc.question === 'string') faq.push(doc as unknown as Faq)
      else pages.push(doc as unknown as Page)
    }
  } else {
    items = await readItems(join(dir, 'items.json'))
    settings = await readSettings(join(dir, 'settings.json'), items)
    pages = []
    faq = []
  }
  const itemById = new Map(items.map((i) => [i.id, i]))
  const requestsFile = join(dir, 'requests.json')
  const raw = await readList(requestsFile, name === 'demo')
  checkIds(requestsFile, raw, 'request')
  const requests = raw.map((r) => {
    const where = entryBasics(requestsFile, r)
    checkSay(where, r.say)
    checkClassification(where, r.classification, true)
    if (!Array.isArray(r.relevant) || r.relevant.some((x) => typeof x !== 'string' && typeof x !== 'number')) throw new DatasetError(`${where}: "relevant" must be a list of item ids ([] when nothing fits)`)
    const relevant = (r.relevant as unknown[]).map(String)
    for (const id of relevant) if (!itemById.has(id)) throw new DatasetError(`${where}: relevant item ${JSON.stringify(id)} is not in the catalog's items`)
    return { ...r, relevant } as unknown as Request
  })
  const conversations = await loadConversations(join(dir, 'conversations.json'), knowledgeIds(dir, pages, faq), itemById)
  if (requests.length + conversations.length === 0) throw new DatasetError(`${dir}: neither requests.json nor conversations.json holds an entry`)
  return { kind: 'catalog', name, label: `catalogs/${name}`, dir, heldout, pages, faq, items, ...(settings === undefined ? {} : { settings }), questions: [], requests, conversations }
}

async function readItems (file: string): Promise<Item[]> {
  const raw = await readList(file, false)
  const items = raw.map((item, n) => {
    let doc: Record<string, unknown>
    try {
      doc = validateDocument(item, n)
    } catch (err) {
      throw new DatasetError(`${file}: ${err instanceof Error ? err.message : String(err)}`)
    }
    const where = `${file}: item ${JSON.stringify(doc.id)}`
    if (typeof doc.title !== 'string' || doc.title.trim() === '') throw new DatasetError(`${where}: needs a "title"`)
    if (typeof doc.price !== 'number' || !Number.isFinite(doc.price)) throw new DatasetError(`${where}: needs a numeric "price"`)
    if (doc.rating !== undefined && typeof doc.rating !== 'number') throw new DatasetError(`${where}: "rating" must be a number`)
    return doc as Item
  })
  checkIds(file, items, 'item')
  return items
}

async function readSettings (file: string, items: Item[]): Promise<IndexSettings> {
  if (!existsSync(file)) throw new DatasetError(`${file}: missing`)
  const value = await readJson(file) as Record<string, unknown>
  const keys = ['searchableAttributes', 'filterableAttributes', 'facetableAttributes'] as const
  for (const key of keys) {
    if (!isStrings(value?.[key])) throw new DatasetError(`${file}: "${key}" must be a list of field names`)
  }
  const fields = new Set(items.flatMap((i) => Object.keys(i)))
  for (const key of keys) {
    for (const field of value[key] as string[]) {
      if (field !== '*' && !fields.has(field.split('.')[0]!)) throw new DatasetError(`${file}: ${key} names ${JSON.stringify(field)}, which no item has`)
    }
  }
  return { searchableAttributes: value.searchableAttributes as string[], filterableAttributes: value.filterableAttributes as string[], facetableAttributes: value.facetableAttributes as string[] }
}

const EXPECT_KEYS = new Set(['handoff', 'classification', 'cites_catalog', 'cites_knowledge', 'cites_source', 'contains_any', 'cites_any_of', 'cites_turn_item', 'contains_price_of_turn_item', 'names_higher_rated', 'names_cheaper', 'cites_none_of_turn'])

async function loadConversations (file: string, sources: Set<string>, items: Map<string, Item>): Promise<Conversation[]> {
  const raw = await readList(file, true)
  checkIds(file, raw, 'conversation')
  return raw.map((c) => {
    const where = entryBasics(file, c)
    if (typeof c.category !== 'string' || c.category === '') throw new DatasetError(`${where}: needs a "category"`)
    if (!Array.isArray(c.turns) || c.turns.length === 0) throw new DatasetError(`${where}: needs "turns"`)
    ;(c.turns as unknown[]).forEach((turn, n) => {
      const at = `${where} turn ${n}`
      const t = turn as Partial<Turn> | null
      if (typeof t !== 'object' || t === null) throw new DatasetError(`${at}: not an object`)
      checkSay(at, t.say)
      const e = t.expect as Record<string, unknown> | undefined
      if (typeof e !== 'object' || e === null || Array.isArray(e)) throw new DatasetError(`${at}: needs an "expect" object`)
      for (const key of Object.keys(e)) if (!EXPECT_KEYS.has(key)) throw new DatasetError(`${at}: unknown check ${JSON.stringify(key)} (known: ${[...EXPECT_KEYS].join(', ')})`)
      for (const key of ['handoff', 'cites_catalog', 'cites_knowledge'] as const) {
        if (e[key] !== undefined && typeof e[key] !== 'boolean') throw new DatasetError(`${at}: "${key}" must be true or false`)
      }
      checkClassification(at, e.classification, false)
      for (const key of ['cites_source', 'contains_any', 'cites_any_of'] as const) {
        if (e[key] !== undefined && (!isStrings(e[key]) || e[key].length === 0)) throw new DatasetError(`${at}: "${key}" must be a non-empty list of strings`)
      }
      for (const s of (e.cites_source as string[] | undefined) ?? []) if (!sources.has(s)) throw new DatasetError(`${at}: cites_source ${JSON.stringify(s)} is no knowledge page or FAQ id of this dataset`)
      for (const id of (e.cites_any_of as string[] | undefined) ?? []) if (!items.has(id)) throw new DatasetError(`${at}: cites_any_of ${JSON.stringify(id)} is not in the catalog's items`)
      const earlier = (turnNo: unknown, key: string) => {
        if ((turnNo as number) >= n) throw new DatasetError(`${at}: "${key}" refers to turn ${String(turnNo)}, not an earlier one`)
      }
      for (const [key, size] of [['cites_turn_item', 2], ['contains_price_of_turn_item', 2], ['names_higher_rated', 3], ['names_cheaper', 3]] as const) {
        if (e[key] === undefined) continue
        if (!isInts(e[key], size)) throw new DatasetError(`${at}: "${key}" must be ${size === 2 ? '[turn, n]' : '[turn, n, m]'} (non-negative integers)`)
        earlier((e[key] as number[])[0], key)
        if (items.size === 0) throw new DatasetError(`${at}: "${key}" needs catalog items, and this dataset has none`)
      }
      if (e.cites_none_of_turn !== undefined) {
        if (!Number.isSafeInteger(e.cites_none_of_turn) || (e.cites_none_of_turn as number) < 0) throw new DatasetError(`${at}: "cites_none_of_turn" must be a turn number`)
        earlier(e.cites_none_of_turn, 'cites_none_of_turn')
      }
    })
    return c as unknown as Conversation
  })
}

/** The text a source holds: a page's title and text, an FAQ pair's question and answer. */
export function sourceTexts (dataset: Dataset): Map<string, string> {
  return new Map([
    ...dataset.pages.map((p) => [p.id, `${p.title}\n${p.content}`] as const),
    ...dataset.faq.map((f) => [f.id, `${f.question}\n${f.answer}`] as const)
  ])
}

/** Facts of questions found in none of their sources' text (after the normalisation the checks use). */
export function missingFacts (dataset: Dataset): string[] {
  const texts = sourceTexts(dataset)
  const missing: string[] = []
  for (const q of dataset.questions) {
    const text = (q.sources ?? []).map((s) => norm(texts.get(s) ?? '')).join('\n')
    for (const fact of q.facts ?? []) {
      if (!text.includes(norm(fact))) missing.push(`${dataset.label} question ${q.id}: fact ${JSON.stringify(fact)} is in none of [${(q.sources ?? []).join(', ')}]`)
    }
  }
  return missing
}
