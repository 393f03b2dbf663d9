#!/usr/bin/env node
// Checks one help corpus folder: node help/check.mjs help/<name>
// - pages/<id>.md: id charset, front matter (title, url), size
// - faq.json: unique ids, fields
// - questions.json: unique ids, split/category/classification values, sources exist,
//   every fact found (normalised) in the text of at least one of its sources, counts
// - conversations.json: unique ids, cites_source ids exist, contains_any found in a cited source
// Exit code 1 when an error is found (bad id, missing source, fact not found, bad value);
// counts and sizes outside the brief are warnings and do not fail.
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { join, basename } from 'node:path'

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node help/check.mjs help/<name>')
  process.exit(2)
}

const errors = []
const warnings = []
const err = (m) => errors.push(m)
const warn = (m) => warnings.push(m)

// The harness's normalisation: lower case, ’ -> ', collapse whitespace, remove _ * `
const norm = (s) =>
  String(s)
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[_*`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()

const ID_RE = /^[A-Za-z0-9_-]+$/
const docs = new Map() // id -> normalised text

// ---- pages
const pagesDir = join(dir, 'pages')
if (!existsSync(pagesDir)) err(`missing ${pagesDir}`)
const pageFiles = existsSync(pagesDir) ? readdirSync(pagesDir).filter((f) => f.endsWith('.md')) : []
for (const f of pageFiles) {
  const id = basename(f, '.md')
  if (!ID_RE.test(id)) err(`page id "${id}" has characters other than letters, digits, - and _`)
  const raw = readFileSync(join(pagesDir, f), 'utf8')
  const m = raw.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/)
  if (!m) {
    err(`page ${id}: missing front matter (---/title:/url:/---)`)
    continue
  }
  const fm = Object.fromEntries(
    m[1].split('\n').map((l) => {
      const i = l.indexOf(':')
      return [l.slice(0, i).trim(), l.slice(i + 1).trim()]
    })
  )
  const body = m[2]
  const { title = '', url = '' } = fm
  const extra = Object.keys(fm).filter((k) => k !== 'title' && k !== 'url')
  if (extra.length) warn(`page ${id}: front matter has keys other than title and url: ${extra.join(', ')}`)
  if (!/^https?:\/\//.test(url)) err(`page ${id}: url is missing or not http(s): ${url}`)
  if (!title) err(`page ${id}: empty title`)
  const len = body.trim().length
  if (len < 300 || len > 6000) warn(`page ${id}: body is ${len} characters (want 300-6000)`)
  if (/<\/?[a-z][^>]*>/i.test(body.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, ''))) warn(`page ${id}: body looks like it still contains markup`)
  docs.set(id, norm(body))
}
if (pageFiles.length < 15 || pageFiles.length > 30) warn(`${pageFiles.length} pages (want 15-30)`)

// ---- faq
const readJson = (name) => {
  const p = join(dir, name)
  if (!existsSync(p)) {
    err(`missing ${p}`)
    return []
  }
  try {
    return JSON.parse(readFileSync(p, 'utf8'))
  } catch (e) {
    err(`${p}: invalid JSON: ${e.message}`)
    return []
  }
}
const faq = existsSync(join(dir, 'faq.json')) ? readJson('faq.json') : (warn('no faq.json'), [])
if (faq.length < 8 || faq.length > 15) warn(`${faq.length} FAQ pairs (want 8-15)`)
for (const q of faq) {
  if (!q.id || !ID_RE.test(q.id)) err(`faq id "${q.id}" invalid`)
  if (!String(q.id).startsWith('faq-')) warn(`faq id "${q.id}" does not start with faq-`)
  for (const k of ['question', 'answer', 'url']) if (!q[k]) err(`faq ${q.id}: missing ${k}`)
  if (docs.has(q.id)) err(`faq id ${q.id} is also a page id (or duplicated)`)
  docs.set(q.id, norm(q.answer))
}

const checkFacts = (where, sources, facts) => {
  for (const s of sources) if (!docs.has(s)) err(`${where}: source "${s}" does not exist`)
  for (const f of facts) {
    const nf = norm(f)
    if (!nf) {
      err(`${where}: empty fact`)
      continue
    }
    const words = nf.split(' ').length
    if (words < 4 || words > 12) warn(`${where}: fact "${f}" has ${words} words (want 4-12)`)
    if (!sources.some((s) => docs.has(s) && docs.get(s).includes(nf))) { err(`${where}: fact "${f}" not found in ${sources.join(', ')}`) }
  }
}

// ---- questions
const CATS = ['answerable', 'faq', 'problem', 'unanswerable', 'action']
const CLASSES = ['question', 'request', 'greeting', 'complaint', 'feedback', 'other']
const MIN = { answerable: 25, faq: 8, problem: 6, unanswerable: 8, action: 8 }
const questions = readJson('questions.json')
const seen = new Set()
const counts = {}
for (const q of questions) {
  const where = `question ${q.id}`
  if (!q.id || !ID_RE.test(q.id)) err(`question id "${q.id}" invalid`)
  if (seen.has(q.id)) err(`${where}: duplicate id`)
  seen.add(q.id)
  if (!['dev', 'heldout'].includes(q.split)) err(`${where}: split "${q.split}"`)
  if (!CATS.includes(q.category)) err(`${where}: category "${q.category}"`)
  if (!CLASSES.includes(q.classification)) err(`${where}: classification "${q.classification}"`)
  if (!q.say || !String(q.say).trim()) err(`${where}: empty say`)
  const key = `${q.category}/${q.split}`
  counts[key] = (counts[key] ?? 0) + 1
  if (['answerable', 'faq', 'problem'].includes(q.category)) {
    if (!Array.isArray(q.sources) || !q.sources.length) err(`${where}: needs sources`)
    if (!Array.isArray(q.facts) || !q.facts.length || q.facts.length > 3) err(`${where}: needs 1-3 facts`)
    checkFacts(where, q.sources ?? [], q.facts ?? [])
    if (q.category === 'faq' && !(q.sources ?? []).some((s) => faq.some((f) => f.id === s))) { err(`${where}: faq question without a faq source`) }
    if (q.category === 'faq') {
      const pair = faq.find((f) => f.id === q.sources?.[0])
      if (pair && norm(pair.question) === norm(q.say)) warn(`${where}: say repeats the FAQ question verbatim`)
    }
  } else if (q.sources?.length || q.facts?.length) {
    warn(`${where}: ${q.category} question has sources/facts`)
  }
}
for (const c of CATS) {
  const n = (counts[`${c}/dev`] ?? 0) + (counts[`${c}/heldout`] ?? 0)
  if (n < MIN[c]) warn(`category ${c}: ${n} questions (want at least ${MIN[c]})`)
}
if (questions.length < 55) warn(`${questions.length} questions (want at least 55)`)

// ---- conversations
const convs = existsSync(join(dir, 'conversations.json')) ? readJson('conversations.json') : (warn('no conversations.json'), [])
if (convs.length < 4 || convs.length > 6) warn(`${convs.length} conversations (want 4-6)`)
const EXPECT_KEYS = ['handoff', 'classification', 'cites_source', 'contains_any']
for (const c of convs) {
  const where = `conversation ${c.id}`
  if (!c.id || !ID_RE.test(c.id)) err(`conversation id "${c.id}" invalid`)
  if (seen.has(c.id)) err(`${where}: duplicate id`)
  seen.add(c.id)
  if (!['dev', 'heldout'].includes(c.split)) err(`${where}: split "${c.split}"`)
  if (c.category !== 'follow-up') err(`${where}: category must be follow-up`)
  if (!Array.isArray(c.turns) || c.turns.length < 2) err(`${where}: needs at least 2 turns`)
  counts[`follow-up/${c.split}`] = (counts[`follow-up/${c.split}`] ?? 0) + 1;
  (c.turns ?? []).forEach((t, i) => {
    const w = `${where} turn ${i}`
    if (!t.say) err(`${w}: empty say`)
    const e = t.expect ?? {}
    for (const k of Object.keys(e)) if (!EXPECT_KEYS.includes(k)) err(`${w}: unknown expect key ${k}`)
    if ('classification' in e && !CLASSES.includes(e.classification)) err(`${w}: classification "${e.classification}"`)
    const cites = e.cites_source ?? []
    for (const s of cites) if (!docs.has(s)) err(`${w}: cites_source "${s}" does not exist`)
    for (const s of e.contains_any ?? []) {
      const pool = cites.length ? cites : [...docs.keys()]
      if (!pool.some((id) => docs.get(id)?.includes(norm(s)))) err(`${w}: contains_any "${s}" not found in ${cites.join(', ') || 'any source'}`)
    }
    if (e.handoff === false && !cites.length) warn(`${w}: handoff false without cites_source`)
  })
}

// ---- report
console.log(`${dir}: ${pageFiles.length} pages, ${faq.length} faq pairs, ${questions.length} questions, ${convs.length} conversations`)
console.log(
  Object.entries(counts)
    .sort()
    .map(([k, v]) => `  ${k}: ${v}`)
    .join('\n')
)
for (const w of warnings) console.log(`warning: ${w}`)
for (const e of errors) console.log(`ERROR: ${e}`)
if (errors.length) process.exit(1)
console.log('ok')
