import type { Citation } from '@chatsearch/contracts'
import type { ToolCall, ToolSpec } from './llm/client.js'
import type { CatalogItem, KnowledgePassage, RetrievalContext, RetrievedItem, Retriever } from './types.js'
import { citationOfPassage } from './sentences.js'
import { clears, weighItems, weighPassages } from './evidence.js'
import { stems } from './words.js'

/**
 * The tools a model gets (decision 13): the catalog and the knowledge, through the same retriever
 * as the grounded responder. Everything a tool returns is kept as a source: the reply may cite only
 * these, and the facts it states are checked against them (checkReply).
 */
export const TOOLS: ToolSpec[] = [
  {
    name: 'search_catalog',
    description: 'Search the shop\'s catalog. Write the shopper\'s need in plain words, with any price limit, brand, colour or "in stock" in the text (e.g. "waterproof hiking boots under $150"). Returns the best items with id, title, price, stock, brand, category, rating and description.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for, in plain words' } },
      required: ['query'],
      additionalProperties: false
    }
  },
  {
    name: 'search_knowledge',
    description: 'Search the shop\'s help pages and FAQs (shipping, returns, refunds, warranty, payment, accounts…). Returns passages with their id, title, link and text.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'The question, in plain words' } },
      required: ['query'],
      additionalProperties: false
    }
  },
  {
    name: 'get_item',
    description: 'One catalog item by its id, with every field the catalog holds (e.g. for an item named earlier in the conversation).',
    parameters: {
      type: 'object',
      properties: { id: { type: 'string', description: 'The item id, as a tool or the conversation gave it' } },
      required: ['id'],
      additionalProperties: false
    }
  }
]

/** A source a tool returned: what a citation of it says and the text its facts are checked against. */
export interface Source { citation: Citation, text: string, title: string }

const DESCRIPTION_LIMIT = 300
/** Items a catalog search returns to the model at most (those the relevance scale lets through). */
const ITEMS = 5
/** What a retrieved item carries of its searches: not for the model. */
const SEARCH_FIELDS = new Set(['semantic', 'keyword', 'rank'])

const catalogCitation = (id: string, title: string, confidence: number): Citation => ({ source: 'catalog', reference: id, confidence, title })

function itemView (item: RetrievedItem | CatalogItem): Record<string, unknown> {
  const view: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(item)) {
    if (SEARCH_FIELDS.has(key) || key.startsWith('_') || value === undefined || value === null) continue
    view[key] = typeof value === 'string' && value.length > DESCRIPTION_LIMIT ? `${value.slice(0, DESCRIPTION_LIMIT)}…` : value
  }
  return view
}

const textOf = (view: Record<string, unknown>) => Object.entries(view).map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`).join('\n')

function parseArguments (call: ToolCall): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.arguments === '' ? '{}' : call.arguments)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : {}
  } catch {
    return {}
  }
}

/**
 * Runs the model's tool calls for one turn and remembers what they returned. A call with bad
 * arguments, an unknown tool or a failed search answers with an error the model can read; the
 * turn goes on.
 */
export class ToolRunner {
  readonly sources = new Map<string, Source>()
  readonly #retriever: Retriever
  readonly #projectId: string
  readonly #context: RetrievalContext

  constructor (retriever: Retriever, projectId: string, context: RetrievalContext) {
    this.#retriever = retriever
    this.#projectId = projectId
    this.#context = context
  }

  /** The ids a reply may cite, with their titles (for the marker stripper and citeFromReply). */
  get citable (): Array<{ id: string, title: string }> {
    return [...this.sources.entries()].map(([id, source]) => ({ id, title: source.title }))
  }

  async run (call: ToolCall): Promise<string> {
    const args = parseArguments(call)
    const text = (key: string) => typeof args[key] === 'string' ? (args[key] as string).trim() : ''
    switch (call.name) {
      case 'search_catalog': {
        const query = text('query')
        if (query === '') return JSON.stringify({ error: 'query is required' })
        const found = await this.#retriever.retrieve(this.#projectId, query, [], this.#context)
        if (found.failure !== undefined) return JSON.stringify({ error: 'the catalog cannot be searched right now' })
        const wanted = stems(found.plan?.query === undefined || found.plan.query === '' ? query : found.plan.query)
        const items = weighItems(found.items, wanted).filter(clears).slice(0, ITEMS)
        for (const { item, relevance } of items) this.#keepItem(item, relevance)
        return JSON.stringify({ items: items.map(({ item }) => itemView(item)) })
      }
      case 'search_knowledge': {
        const query = text('query')
        if (query === '') return JSON.stringify({ error: 'query is required' })
        const found = await this.#retriever.knowledge(this.#projectId, query, this.#context)
        if (found.failure !== undefined) return JSON.stringify({ error: 'the help pages cannot be searched right now' })
        const passages = weighPassages(found.passages, stems(query)).filter(clears)
        return JSON.stringify({ passages: passages.map((p) => this.#keepPassage(p.passage, p.relevance)) })
      }
      case 'get_item': {
        const id = text('id')
        if (id === '') return JSON.stringify({ error: 'id is required' })
        const found = await this.#retriever.items(this.#projectId, [id], this.#context)
        if (found.failure !== undefined) return JSON.stringify({ error: 'the catalog cannot be read right now' })
        const item = found.items[0]
        if (item === undefined) return JSON.stringify({ error: `no item ${id} in the catalog` })
        this.#keepItem(item, this.sources.get(String(item.id))?.citation.confidence ?? 1)
        return JSON.stringify({ item: itemView(item) })
      }
      default:
        return JSON.stringify({ error: `there is no tool ${call.name}; the tools are ${TOOLS.map((t) => t.name).join(', ')}` })
    }
  }

  #keepItem (item: RetrievedItem | CatalogItem, confidence: number): void {
    const id = String(item.id)
    const title = typeof item.title === 'string' ? item.title : id
    // The price as a reply would write it, so that checkReply finds "$366.99" in it.
    const price = typeof item.price === 'number' ? `\nprice $${item.price.toFixed(2)}` : ''
    this.sources.set(id, { citation: catalogCitation(id, title, confidence), text: textOf(itemView(item)) + price, title })
  }

  #keepPassage (p: KnowledgePassage, relevance: number): Record<string, unknown> {
    const citation = citationOfPassage(p, relevance)
    this.sources.set(citation.reference, { citation, text: `${p.title}\n${p.section}\n${p.text}`, title: citation.title ?? citation.reference })
    return { id: citation.reference, title: citation.title, ...(p.url === undefined ? {} : { url: p.url }), text: p.text }
  }
}

/** Prices a text states ("$1,299.99", "$80", "80 USD"), as numbers. */
export function pricesIn (text: string): number[] {
  const found: number[] = []
  for (const m of text.matchAll(/\$\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?|\b(\d+(?:\.\d{1,2})?)\s?(?:USD|dollars?)\b/gi)) {
    const value = m[3] !== undefined ? Number(m[3]) : Number(`${m[1]!.replace(/,/g, '')}.${m[2] ?? '0'}`)
    if (Number.isFinite(value)) found.push(value)
  }
  return found
}

/**
 * Why a model's finished reply may not be sent, or undefined when it may: every marker must name a
 * source a tool returned, and every price it states must be in one of the sources it cites (a price
 * written without citing where it comes from is a price nobody can check).
 */
export function checkReply (markers: string[], cited: string[], text: string, sources: Map<string, Source>): string | undefined {
  const unknown = markers.filter((id) => !sources.has(id))
  if (unknown.length > 0) return `the reply cites ${unknown.join(', ')}, which no tool returned`
  const citedText = cited.map((id) => sources.get(id)?.text ?? '').join('\n')
  const stated = new Set(pricesIn(citedText).map((p) => p.toFixed(2)))
  const unsupported = pricesIn(text).filter((p) => !stated.has(p.toFixed(2)))
  if (unsupported.length > 0) return `the reply states $${unsupported[0]!.toFixed(2)}, which no cited source holds`
  return undefined
}
