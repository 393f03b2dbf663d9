#!/usr/bin/env node
// Checks one evaluation catalog folder: node catalogs/check.mjs catalogs/<name>
// items.json, settings.json, requests.json, conversations.json (see SOURCE.md of each catalog).
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node catalogs/check.mjs catalogs/<name>')
  process.exit(2)
}

const errors = []
const warnings = []
const err = (m) => errors.push(m)
const warn = (m) => warnings.push(m)
const load = (f) => {
  const p = join(dir, f)
  if (!existsSync(p)) { err(`${f}: missing`); return undefined }
  try { return JSON.parse(readFileSync(p, 'utf8')) } catch (e) { err(`${f}: invalid JSON (${e.message})`); return undefined }
}

const ID = /^[A-Za-z0-9_-]{1,511}$/
const SPLITS = new Set(['dev', 'heldout'])
const LABELS = new Set(['question', 'request', 'greeting', 'complaint', 'feedback', 'other'])
const CATEGORIES = new Set(['comparison', 'gift', 'details', 'refine', 'follow-up'])
const ITEM_FIELDS = new Set(['id', 'title', 'description', 'price', 'category', 'brand', 'color', 'rating', 'in_stock', 'tags'])

if (!existsSync(join(dir, 'SOURCE.md'))) err('SOURCE.md: missing')

// ---- items
const items = load('items.json')
const byId = new Map()
if (items !== undefined) {
  if (!Array.isArray(items) || items.length === 0) err('items.json: not a non-empty array')
  else {
    items.forEach((it, i) => {
      const where = `items[${i}]${it && it.id ? ` (${it.id})` : ''}`
      if (typeof it.id !== 'string' || !ID.test(it.id)) err(`${where}: invalid id`)
      else if (byId.has(it.id)) err(`${where}: duplicate id`)
      else byId.set(it.id, it)
      if (typeof it.title !== 'string' || !it.title.trim()) err(`${where}: missing title`)
      if (typeof it.price !== 'number' || !Number.isFinite(it.price) || it.price < 0) err(`${where}: price is not a non-negative number`)
      if (typeof it.category !== 'string' || !it.category.trim()) err(`${where}: missing category`)
      if (typeof it.in_stock !== 'boolean') err(`${where}: in_stock is not a boolean`)
      if ('description' in it && typeof it.description !== 'string') err(`${where}: description is not a string`)
      if ('description' in it && /<\/?[a-z][^>]*>/i.test(it.description)) err(`${where}: description holds HTML`)
      if ('rating' in it && (typeof it.rating !== 'number' || it.rating < 0 || it.rating > 5)) err(`${where}: rating not a number in 0..5`)
      if ('brand' in it && typeof it.brand !== 'string') err(`${where}: brand is not a string`)
      if ('color' in it && !(typeof it.color === 'string' || (Array.isArray(it.color) && it.color.length > 0 && it.color.every((c) => typeof c === 'string')))) err(`${where}: color is not a string or array of strings`)
      if ('tags' in it && !(Array.isArray(it.tags) && it.tags.every((t) => typeof t === 'string'))) err(`${where}: tags is not an array of strings`)
      for (const k of Object.keys(it)) if (!ITEM_FIELDS.has(k)) err(`${where}: unexpected field ${k}`)
    })
  }
}
const fieldsPresent = new Set((Array.isArray(items) ? items : []).flatMap((o) => Object.keys(o)))

// ---- settings
const settings = load('settings.json')
if (settings !== undefined) {
  for (const k of ['searchableAttributes', 'filterableAttributes', 'facetableAttributes']) {
    if (!Array.isArray(settings[k])) { err(`settings.json: ${k} missing`); continue }
    for (const a of settings[k]) if (!fieldsPresent.has(a)) err(`settings.json: ${k} names ${a}, which no item has`)
  }
}

const checkIds = (ids, where) => {
  if (!Array.isArray(ids)) { err(`${where}: not an array`); return }
  for (const id of ids) if (!byId.has(id)) err(`${where}: unknown item id ${JSON.stringify(id)}`)
  if (new Set(ids).size !== ids.length) warn(`${where}: duplicate ids`)
}
const checkSplit = (s, where) => { if (!SPLITS.has(s)) err(`${where}: split missing or not dev|heldout`) }

// ---- requests
const requests = load('requests.json')
if (requests !== undefined) {
  if (!Array.isArray(requests)) err('requests.json: not an array')
  else {
    const seen = new Set()
    requests.forEach((r, i) => {
      const where = `requests[${i}]${r.id ? ` (${r.id})` : ''}`
      if (typeof r.id !== 'string' || !ID.test(r.id)) err(`${where}: invalid id`)
      else if (seen.has(r.id)) err(`${where}: duplicate id`)
      seen.add(r.id)
      checkSplit(r.split, where)
      if (typeof r.say !== 'string' || !r.say.trim()) err(`${where}: say missing`)
      checkIds(r.relevant, `${where}.relevant`)
      if (!LABELS.has(r.classification)) err(`${where}: classification missing or unknown`)
    })
    if (requests.length < 40) err(`requests.json: ${requests.length} requests, at least 40 wanted`)
    const none = requests.filter((r) => Array.isArray(r.relevant) && r.relevant.length === 0).length
    if (none < 5) err(`requests.json: ${none} requests with no relevant item, at least 5 wanted`)
  }
}

// ---- conversations
const conversations = load('conversations.json')
if (conversations !== undefined) {
  if (!Array.isArray(conversations)) err('conversations.json: not an array')
  else {
    const seen = new Set()
    conversations.forEach((c, i) => {
      const where = `conversations[${i}]${c.id ? ` (${c.id})` : ''}`
      if (typeof c.id !== 'string' || !ID.test(c.id)) err(`${where}: invalid id`)
      else if (seen.has(c.id)) err(`${where}: duplicate id`)
      seen.add(c.id)
      checkSplit(c.split, where)
      if (!CATEGORIES.has(c.category)) err(`${where}: category missing or unknown`)
      if (!Array.isArray(c.turns) || c.turns.length < 2 || c.turns.length > 4) { err(`${where}: wants 2-4 turns`); return }
      c.turns.forEach((t, n) => {
        const tw = `${where}.turns[${n}]`
        if (typeof t.say !== 'string' || !t.say.trim()) err(`${tw}: say missing`)
        const e = t.expect
        if (!e || typeof e !== 'object') { err(`${tw}: expect missing`); return }
        const earlier = (turn, k) => { if (!Number.isInteger(turn) || turn < 0 || turn >= n) err(`${tw}.${k}: turn ${turn} is not an earlier turn`) }
        for (const [k, v] of Object.entries(e)) {
          switch (k) {
            case 'handoff': case 'cites_catalog':
              if (typeof v !== 'boolean') err(`${tw}.${k}: not a boolean`); break
            case 'classification':
              if (!LABELS.has(v)) err(`${tw}.${k}: unknown label ${v}`); break
            case 'cites_any_of':
              checkIds(v, `${tw}.${k}`); if (Array.isArray(v) && v.length === 0) err(`${tw}.${k}: empty`); break
            case 'contains_any':
              if (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === 'string' && s)) err(`${tw}.${k}: not a non-empty array of strings`); break
            case 'cites_turn_item': case 'contains_price_of_turn_item':
              if (!Array.isArray(v) || v.length !== 2 || !Number.isInteger(v[1]) || v[1] < 0) err(`${tw}.${k}: wants [turn, n]`); else earlier(v[0], k); break
            case 'names_higher_rated': case 'names_cheaper':
              if (!Array.isArray(v) || v.length !== 3 || !Number.isInteger(v[1]) || !Number.isInteger(v[2]) || v[1] === v[2]) err(`${tw}.${k}: wants [turn, n, m]`); else earlier(v[0], k)
              if (k === 'names_higher_rated' && !fieldsPresent.has('rating')) err(`${tw}.${k}: the catalog has no ratings`)
              break
            case 'cites_none_of_turn':
              earlier(v, k); break
            default:
              err(`${tw}: unknown check ${k}`)
          }
        }
      })
    })
    if (conversations.length < 10) err(`conversations.json: ${conversations.length} conversations, at least 10 wanted`)
  }
}

// ---- summary
const count = (xs, f) => xs.reduce((m, x) => { const k = f(x); m[k] = (m[k] ?? 0) + 1; return m }, {})
if (Array.isArray(items)) console.log(`${dir}: ${items.length} items; categories ${JSON.stringify(count(items, (o) => o.category))}`)
if (Array.isArray(requests)) console.log(`requests: ${requests.length}; by split ${JSON.stringify(count(requests, (r) => r.split))}; by pattern/split ${JSON.stringify(count(requests, (r) => `${String(r.id).replace(/-\d+$/, '')}/${r.split}`))}`)
if (Array.isArray(conversations)) console.log(`conversations: ${conversations.length}; by category/split ${JSON.stringify(count(conversations, (c) => `${c.category}/${c.split}`))}`)
for (const w of warnings) console.log(`warning: ${w}`)
if (errors.length) {
  for (const e of errors) console.error(`error: ${e}`)
  console.error(`${errors.length} error(s)`)
  process.exit(1)
}
console.log('ok')
