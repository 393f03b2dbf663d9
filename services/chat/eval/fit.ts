// `node --import tsx eval/fit.ts <features.jsonl>`: fits the relevance model of
// src/assistant/relevance-weights.ts from the evidence features `pnpm eval` writes with
// EVAL_FEATURES=<file> (development entries only). One logistic regression per kind of evidence
// (item, passage, faq), and a listwise ranking of the sentences a page answer quotes from (sentence):
// batch gradient descent on the mean log loss with a small L2 penalty, weights
// kept at 0 or above (more similarity or more words held never counts against), features
// as they are (all in [0, 1]). Written here rather than taken from a library: it is twenty lines, and
// the maintained JavaScript ML libraries bring far more than a few-feature regression needs.
// Prints the weights to paste into relevance-weights.ts, and the threshold with the best balanced
// accuracy of "does anything answer this message" over the development messages, beside the committed
// one; then the same fitted on all help corpora but one and judged on that one, for each in turn.
import { readFile } from 'node:fs/promises'
import { THRESHOLD, WEIGHTS } from '../src/assistant/relevance-weights.js'

interface Row { kind: 'item' | 'passage' | 'faq' | 'sentence', features: Record<string, number>, label: 0 | 1, entry: string, answerable: boolean, dataset?: string }

const file = process.argv[2]
if (file === undefined) {
  process.stderr.write('usage: node --import tsx eval/fit.ts <features.jsonl>\n')
  process.exit(2)
}
const rows = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Row)

const ITERATIONS = 20_000
const RATE = 0.5
const L2 = 0.001
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))

function fit (data: Row[]): { bias: number, weights: Record<string, number> } {
  const names = Object.keys(data[0]!.features)
  let bias = 0
  const w = names.map(() => 0)
  for (let it = 0; it < ITERATIONS; it++) {
    let gb = 0
    const gw = names.map(() => 0)
    for (const r of data) {
      const z = bias + names.reduce((sum, n, i) => sum + w[i]! * r.features[n]!, 0)
      const error = sigmoid(z) - r.label
      gb += error
      names.forEach((n, i) => { gw[i]! += error * r.features[n]! })
    }
    bias -= RATE * gb / data.length
    // No weight below 0: more of a feature (similarity, words held) never makes evidence less relevant.
    names.forEach((_, i) => { w[i] = Math.max(0, w[i]! - RATE * (gw[i]! / data.length + L2 * w[i]!)) })
  }
  return { bias, weights: Object.fromEntries(names.map((n, i) => [n, w[i]!])) }
}

// The probabilities are the natural ones (no class reweighting): 0.5 is "more likely to answer than
// not". The one threshold is then chosen over every kind's candidates together, for the best F1.
const fitted: Array<{ kind: string, data: Row[], p: (r: Row) => number }> = []
for (const kind of ['item', 'passage', 'faq'] as const) {
  const data = rows.filter((r) => r.kind === kind)
  if (data.length === 0 || data.every((r) => r.label === data[0]!.label)) {
    console.log(`${kind}: ${data.length} rows, not enough of both labels to fit`)
    continue
  }
  const { bias, weights } = fit(data)
  const p = (r: Row) => sigmoid(bias + Object.entries(weights).reduce((sum, [n, v]) => sum + v * r.features[n]!, 0))
  fitted.push({ kind, data, p })
  const round = (x: number) => Math.round(x * 100) / 100
  console.log(`  ${kind}: { bias: ${round(bias)}, ${Object.entries(weights).map(([n, v]) => `${n}: ${round(v)}`).join(', ')} },`)
}
// The sentence model ranks a page's sentences (no threshold): fitted listwise, each question's
// candidates as one softmax whose chance of choosing a sentence that holds a fact is maximised
// (weights ≥ 0 again). Prints how often its best sentence holds a fact, of the questions where one
// does, beside the committed weights'.
function fitRanking (groups: Row[][]): { bias: number, weights: Record<string, number> } {
  const names = Object.keys(groups[0]![0]!.features)
  const w = names.map(() => 0)
  for (let it = 0; it < ITERATIONS / 4; it++) {
    const gw = names.map(() => 0)
    for (const rs of groups) {
      const z = rs.map((r) => names.reduce((sum, n, i) => sum + w[i]! * r.features[n]!, 0))
      const top = Math.max(...z)
      const e = z.map((v) => Math.exp(v - top))
      const all = e.reduce((a, b) => a + b, 0)
      const pos = rs.reduce((sum, r, k) => sum + (r.label === 1 ? e[k]! : 0), 0)
      // Positives far below the best underflow to 0: the log loss is then infinite, and the group is left out this round.
      if (pos === 0) continue
      // d(-log(pos/all))/dz_k = e_k/all - [label_k] e_k/pos
      rs.forEach((r, k) => {
        const g = e[k]! / all - (r.label === 1 ? e[k]! / pos : 0)
        names.forEach((n, i) => { gw[i]! += g * r.features[n]! })
      })
    }
    names.forEach((_, i) => { w[i] = Math.max(0, w[i]! - RATE * (gw[i]! / groups.length + L2 * w[i]!)) })
  }
  // A softmax has no bias: the one printed keeps the scores' scale comparable with the committed one.
  return { bias: 0, weights: Object.fromEntries(names.map((n, i) => [n, w[i]!])) }
}
const sentences = rows.filter((r) => r.kind === 'sentence')
if (sentences.some((r) => r.label === 1)) {
  const byEntry = new Map<string, Row[]>()
  for (const r of sentences) byEntry.set(r.entry, [...(byEntry.get(r.entry) ?? []), r])
  const withFact = [...byEntry.values()].filter((rs) => rs.some((r) => r.label === 1))
  const { bias, weights } = fitRanking(withFact)
  const round = (x: number) => Math.round(x * 100) / 100
  console.log(`  sentence: { bias: ${round(bias)}, ${Object.entries(weights).map(([n, v]) => `${n}: ${round(v)}`).join(', ')} }`)
  const fittedScore = (r: Row) => bias + Object.entries(weights).reduce((sum, [n, v]) => sum + v * r.features[n]!, 0)
  const committed = WEIGHTS.sentence as unknown as Record<string, number>
  const committedScore = (r: Row) => committed.bias! + Object.keys(r.features).reduce((sum, n) => sum + (committed[n] ?? 0) * r.features[n]!, 0)
  const topHolds = (score: (r: Row) => number) => withFact.filter((rs) => rs.reduce((a, b) => score(b) > score(a) ? b : a).label === 1).length
  console.log(`sentence chosen holds a fact: fitted ${topHolds(fittedScore)}/${withFact.length}, committed ${topHolds(committedScore)}/${withFact.length} (of ${byEntry.size} questions a page answers)`)
}

// The threshold decides, for each message, whether anything answers it: the best candidate of an
// answerable question or request must clear it, and none of an unanswerable one (or a request for
// what the catalog does not have). It is chosen for the most messages decided right.
interface Entry { best: number, answerable: boolean, /** The best candidate is one that answers. */ right: boolean }
function entriesOf (models: Array<{ kind: string, data: Row[], p: (r: Row) => number }>): Entry[] {
  const entries = new Map<string, Entry>()
  for (const { kind, data, p } of models) {
    for (const r of data) {
      const key = `${kind === 'item' ? 'request' : 'question'}:${r.entry}`
      const e = entries.get(key) ?? { best: -1, answerable: r.answerable, right: false }
      const chance = p(r)
      if (chance > e.best) Object.assign(e, { best: chance, right: r.label === 1 })
      entries.set(key, e)
    }
  }
  return [...entries.values()]
}
// Answerable and unanswerable messages count alike (balanced accuracy): the targets ask for both,
// and the sets hold far more of the first.
function decided (all: Entry[], threshold: number) {
  const yes = all.filter((e) => e.answerable)
  const no = all.filter((e) => !e.answerable)
  const answered = yes.filter((e) => e.best >= threshold).length
  const right = yes.filter((e) => e.best >= threshold && e.right).length
  const declined = no.filter((e) => e.best < threshold).length
  return {
    balanced: (answered / Math.max(1, yes.length) + declined / Math.max(1, no.length)) / 2,
    text: `${answered}/${yes.length} answerable cleared (${right} by a candidate that answers), ${declined}/${no.length} unanswerable not`
  }
}
function bestThreshold (all: Entry[]): { threshold: number, balanced: number } {
  let best = { threshold: THRESHOLD, balanced: -1 }
  for (let th = 0.01; th <= 0.8001; th += 0.01) {
    const { balanced } = decided(all, th)
    if (balanced > best.balanced) best = { threshold: Math.round(th * 100) / 100, balanced }
  }
  return best
}
const all = entriesOf(fitted)
const best = bestThreshold(all)
console.log(`threshold with the best balanced accuracy: ${best.threshold} (${best.balanced.toFixed(3)}: ${decided(all, best.threshold).text}); committed: ${THRESHOLD} (${decided(all, THRESHOLD).text})`)

// Leave one corpus out: the passage and FAQ models and the threshold fitted on the other help
// corpora, judged on the one left out. The figures above are those of the data the model was fitted
// on, which flatter any feature; these say how a change carries over to a help centre the fit has
// not seen, from the development half alone (decide a feature by them, not by the held-out half).
const corpora = [...new Set(rows.filter((r) => (r.kind === 'passage' || r.kind === 'faq') && r.dataset !== undefined).map((r) => r.dataset!))].sort()
if (corpora.length >= 2) {
  const scores: number[] = []
  for (const left of corpora) {
    const models = (['passage', 'faq'] as const).flatMap((kind) => {
      const data = rows.filter((r) => r.kind === kind && r.dataset !== undefined && r.dataset !== left)
      if (data.length === 0 || data.every((r) => r.label === data[0]!.label)) return []
      const { bias, weights } = fit(data)
      return [{ kind, data, p: (r: Row) => sigmoid(bias + Object.entries(weights).reduce((sum, [n, v]) => sum + v * r.features[n]!, 0)) }]
    })
    const { threshold } = bestThreshold(entriesOf(models))
    const judged = decided(entriesOf(models.map((m) => ({ ...m, data: rows.filter((r) => r.kind === m.kind && r.dataset === left) }))), threshold)
    scores.push(judged.balanced)
    console.log(`left out ${left}: fitted on the others, threshold ${threshold}: ${judged.balanced.toFixed(3)} (${judged.text})`)
  }
  console.log(`leave one corpus out, mean balanced accuracy: ${(scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(3)}`)
}
