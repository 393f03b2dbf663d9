// The evaluation's checks: what each reply is held to (one Observation per user message), and the
// figures summed from them. No servers here: run.ts sends the messages and reports.
import { promisedActions } from '../src/assistant/promises.js'
import { norm } from './datasets.js'
import type { Conversation, Dataset, Expect, Item, Question, Request, Split } from './datasets.js'

export interface Citation { source: 'catalog' | 'knowledge' | 'faq', reference: string, confidence: number, title?: string, url?: string }
export interface Answer { assistant_response: string, chat_id: string, classification: string, citations: Citation[], handoff: boolean }

/** The document a knowledge/faq citation points at: a page's id (the reference before '#'), an FAQ pair's id. */
export const docOf = (c: Citation): string => c.source === 'knowledge' ? c.reference.split('#')[0]! : c.reference
export const knowledgeCitations = (a: Answer): Citation[] => a.citations.filter((c) => c.source !== 'catalog')
export const catalogCitations = (a: Answer): Citation[] => a.citations.filter((c) => c.source === 'catalog')
export const money = (value: number): string => `$${value.toFixed(2)}`

/** The figures that are shares of messages passing (each message adds to those it is labelled for). */
export const shareFigures = ['helpAnswered', 'problemAnswered', 'faqAnswered', 'unanswerableHandled', 'productRequests', 'absentProducts', 'conversationChecks', 'followUps', 'classification'] as const
export type ShareFigure = typeof shareFigures[number]

export interface Check { name: string, ok: boolean, detail?: string }
export interface Observation {
  dataset: string
  split: Split
  kind: 'question' | 'request' | 'turn'
  /** The question's, request's or conversation's id. */
  id: string
  turn?: number
  category: string
  say: string
  answer: Answer
  checks: Check[]
  figures: Partial<Record<ShareFigure, boolean>>
  /** Knowledge/faq citations of a reply whose sources are known, and how many point at one. */
  citations: { right: number, all: number }
  handoff?: { expected: boolean, got: boolean }
  /** Actions the reply promises that no part of the system takes. */
  promises: string[]
}

const check = (checks: Check[], name: string, ok: boolean, detail?: string): boolean => {
  checks.push({ name, ok, ...(ok || detail === undefined ? {} : { detail }) })
  return ok
}

function base (dataset: Dataset, split: Split, kind: Observation['kind'], id: string, category: string, say: string, answer: Answer): Observation {
  return { dataset: dataset.label, split, kind, id, category, say, answer, checks: [], figures: {}, citations: { right: 0, all: 0 }, promises: promisedActions(answer.assistant_response) }
}

function countCitations (o: Observation, cited: string[], expected: string[]): void {
  for (const d of cited) { o.citations.all++; if (expected.includes(d)) o.citations.right++ }
}

function checkHandoff (o: Observation, expected: boolean): boolean {
  o.handoff = { expected, got: o.answer.handoff }
  return check(o.checks, `handoff ${String(expected)}`, o.answer.handoff === expected, `handoff ${String(o.answer.handoff)}`)
}

function checkClassification (o: Observation, expected: string): void {
  o.figures.classification = check(o.checks, `classification ${expected}`, o.answer.classification === expected, `classified ${o.answer.classification}`)
}

export function judgeQuestion (dataset: Dataset, split: Split, q: Question, a: Answer): Observation {
  const o = base(dataset, split, 'question', q.id, q.category, q.say, a)
  const cited = knowledgeCitations(a).map(docOf)
  if (q.category === 'answerable' || q.category === 'problem' || q.category === 'faq') {
    const sources = q.sources ?? []
    countCitations(o, cited, sources)
    const reply = norm(a.assistant_response)
    const hasFact = check(o.checks, 'holds a fact', (q.facts ?? []).some((f) => reply.includes(norm(f))), 'no expected fact')
    const citesSource = check(o.checks, 'cites a source', cited.some((d) => sources.includes(d)), `cites [${cited.join(', ')}], expected [${sources.join(', ')}]`)
    const answered = checkHandoff(o, false) && hasFact && citesSource
    if (q.category === 'faq') o.figures.faqAnswered = answered
    else o.figures.helpAnswered = answered
    if (q.category === 'problem') o.figures.problemAnswered = answered
  } else {
    const handedOff = checkHandoff(o, true)
    if (q.category === 'unanswerable') {
      const uncited = check(o.checks, 'cites no knowledge', cited.length === 0, `cites [${cited.join(', ')}]`)
      o.figures.unanswerableHandled = handedOff && uncited
    }
  }
  checkClassification(o, q.classification)
  return o
}

export function judgeRequest (dataset: Dataset, split: Split, r: Request, a: Answer): Observation {
  const o = base(dataset, split, 'request', r.id, r.relevant.length > 0 ? 'product' : 'absent', r.say, a)
  const items = catalogCitations(a).map((c) => c.reference)
  const notHandedOff = checkHandoff(o, false)
  if (r.relevant.length > 0) {
    const found = check(o.checks, 'cites a relevant item', items.some((id) => r.relevant.includes(id)), `cites [${items.join(', ')}], relevant [${r.relevant.slice(0, 12).join(', ')}${r.relevant.length > 12 ? ', …' : ''}]`)
    o.figures.productRequests = found && notHandedOff
  } else {
    o.figures.absentProducts = check(o.checks, 'cites no item', items.length === 0, `cites [${items.join(', ')}]`)
  }
  checkClassification(o, r.classification)
  return o
}

/** Turn `n` of a conversation, whose replies so far (this one included) are `answers`. */
export function judgeTurn (dataset: Dataset, split: Split, conv: Conversation, n: number, answers: Answer[], itemById: Map<string, Item>): Observation {
  const a = answers[n]!
  const turn = conv.turns[n]!
  const o = { ...base(dataset, split, 'turn', conv.id, conv.category, turn.say, a), turn: n }
  const e: Expect = turn.expect
  const c = o.checks
  const itemOf = ([t, i]: [number, number]) => catalogCitations(answers[t]!)[i]
  const reply = norm(a.assistant_response)
  const cited = knowledgeCitations(a).map(docOf)
  const items = catalogCitations(a).map((x) => x.reference)
  if (e.handoff !== undefined) checkHandoff(o, e.handoff)
  if (e.classification !== undefined) checkClassification(o, e.classification)
  if (e.cites_catalog !== undefined) check(c, `cites_catalog ${String(e.cites_catalog)}`, (items.length > 0) === e.cites_catalog, `catalog citations: ${items.length}`)
  if (e.cites_knowledge !== undefined) check(c, `cites_knowledge ${String(e.cites_knowledge)}`, (cited.length > 0) === e.cites_knowledge, `knowledge citations: [${cited.join(', ')}]`)
  if (e.cites_source !== undefined) {
    const expected = e.cites_source
    countCitations(o, cited, expected)
    check(c, 'cites_source', cited.length > 0 && cited.every((d) => expected.includes(d)), `cites [${cited.join(', ')}], expected [${expected.join(', ')}]`)
  }
  if (e.contains_any !== undefined) check(c, 'contains_any', e.contains_any.some((f) => reply.includes(norm(f))), `none of ${JSON.stringify(e.contains_any)}`)
  if (e.cites_any_of !== undefined) {
    const wanted = e.cites_any_of
    check(c, 'cites_any_of', items.some((id) => wanted.includes(id)), `cites [${items.join(', ')}], expected one of [${wanted.join(', ')}]`)
  }
  if (e.cites_turn_item !== undefined) {
    const want = itemOf(e.cites_turn_item)
    if (want === undefined) check(c, 'cites_turn_item', false, `turn ${e.cites_turn_item[0]} cited no item ${e.cites_turn_item[1]}`)
    else check(c, 'cites_turn_item', items.includes(want.reference), `does not cite ${want.reference} (${want.title ?? ''}); cites [${items.join(', ')}]`)
  }
  if (e.contains_price_of_turn_item !== undefined) {
    const want = itemOf(e.contains_price_of_turn_item)
    const item = want === undefined ? undefined : itemById.get(want.reference)
    if (item === undefined) check(c, 'contains_price_of_turn_item', false, `turn ${e.contains_price_of_turn_item[0]} cited no item ${e.contains_price_of_turn_item[1]}`)
    else check(c, 'contains_price_of_turn_item', reply.includes(money(item.price)), `no price ${money(item.price)}`)
  }
  const comparisons = [['names_higher_rated', (x: Item, y: Item) => (x.rating ?? 0) - (y.rating ?? 0)], ['names_cheaper', (x: Item, y: Item) => y.price - x.price]] as const
  for (const [key, better] of comparisons) {
    const spec = e[key]
    if (spec === undefined) continue
    const [t, i, j] = spec
    const x = itemOf([t, i])
    const y = itemOf([t, j])
    const xi = x === undefined ? undefined : itemById.get(x.reference)
    const yi = y === undefined ? undefined : itemById.get(y.reference)
    if (xi === undefined || yi === undefined) { check(c, key, false, `turn ${t} cited no items ${i} and ${j}`); continue }
    // A comparison may name both ("A is rated 3.9, B 4.7; B is better rated"): the one named last is the verdict.
    const d = better(xi, yi)
    const last = (z: Item) => reply.lastIndexOf(norm(z.title))
    const verdict = last(xi) > last(yi) ? xi : last(yi) > last(xi) ? yi : undefined
    check(c, key, verdict !== undefined && (d === 0 || better(verdict, verdict === xi ? yi : xi) > 0), `expected ${JSON.stringify(d >= 0 ? xi.title : yi.title)} named last`)
  }
  if (e.cites_none_of_turn !== undefined) {
    const before = new Set(catalogCitations(answers[e.cites_none_of_turn]!).map((x) => x.reference))
    const again = items.filter((id) => before.has(id))
    check(c, 'cites_none_of_turn', again.length === 0, `cites [${again.join(', ')}] of turn ${e.cites_none_of_turn} again`)
  }
  if (c.length > 0) {
    const passed = c.every((x) => x.ok)
    o.figures.conversationChecks = passed
    if (dataset.kind === 'help' && conv.category === 'follow-up') o.figures.followUps = passed
  }
  return o
}

export interface Ratio { passed: number, of: number }
export interface Summary {
  shares: Record<ShareFigure, Ratio>
  citations: Ratio
  handoff: { tp: number, fp: number, fn: number, tn: number }
  /** Replies promising an action, of all replies. */
  promises: Ratio
  /** Conversation turns passing every check, per conversation category. */
  conversationCategories: Record<string, Ratio>
  messages: number
}

export function summarise (observations: Observation[]): Summary {
  const shares = Object.fromEntries(shareFigures.map((f) => [f, { passed: 0, of: 0 }])) as Record<ShareFigure, Ratio>
  const s: Summary = { shares, citations: { passed: 0, of: 0 }, handoff: { tp: 0, fp: 0, fn: 0, tn: 0 }, promises: { passed: 0, of: 0 }, conversationCategories: {}, messages: observations.length }
  for (const o of observations) {
    for (const f of shareFigures) {
      const v = o.figures[f]
      if (v === undefined) continue
      shares[f].of++
      if (v) shares[f].passed++
    }
    s.citations.passed += o.citations.right
    s.citations.of += o.citations.all
    if (o.handoff !== undefined) {
      const { expected, got } = o.handoff
      if (expected && got) s.handoff.tp++
      else if (expected) s.handoff.fn++
      else if (got) s.handoff.fp++
      else s.handoff.tn++
    }
    s.promises.of++
    if (o.promises.length > 0) s.promises.passed++
    if (o.kind === 'turn' && o.figures.conversationChecks !== undefined) {
      const r = s.conversationCategories[o.category] ??= { passed: 0, of: 0 }
      r.of++
      if (o.figures.conversationChecks) r.passed++
    }
  }
  return s
}
