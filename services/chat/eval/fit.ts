// `node --import tsx eval/fit.ts <features.jsonl>`: fits the relevance model of
// src/assistant/relevance-weights.ts from the evidence features `pnpm eval` writes with
// EVAL_FEATURES=<file> (development entries only). One logistic regression per kind of evidence
// (item, passage, faq): batch gradient descent on the mean log loss with a small L2 penalty, features
// as they are (all in [0, 1]). Written here rather than taken from a library: it is twenty lines, and
// the maintained JavaScript ML libraries bring far more than a three-feature regression needs.
// Prints the weights to paste into relevance-weights.ts, and each kind's accuracy at the threshold.
import { readFile } from 'node:fs/promises'
import { THRESHOLD } from '../src/assistant/relevance-weights.js'

interface Row { kind: 'item' | 'passage' | 'faq', features: Record<string, number>, label: 0 | 1 }

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
    names.forEach((_, i) => { w[i]! -= RATE * (gw[i]! / data.length + L2 * w[i]!) })
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
function counts (threshold: number, only?: string) {
  let tp = 0; let fp = 0; let fn = 0
  for (const { kind, data, p } of fitted) {
    if (only !== undefined && kind !== only) continue
    for (const r of data) {
      const yes = p(r) >= threshold
      if (yes && r.label === 1) tp++
      else if (yes) fp++
      else if (r.label === 1) fn++
    }
  }
  return { tp, fp, fn, f1: 2 * tp / Math.max(1, 2 * tp + fp + fn) }
}
let best = { threshold: THRESHOLD, f1: -1 }
for (let th = 0.1; th <= 0.8001; th += 0.05) {
  const { f1 } = counts(th)
  if (f1 > best.f1) best = { threshold: Math.round(th * 100) / 100, f1 }
}
console.log(`threshold with the best F1 over all candidates: ${best.threshold} (F1 ${best.f1.toFixed(3)}); committed: ${THRESHOLD}`)
for (const { kind } of fitted) {
  const c = counts(best.threshold, kind)
  console.log(`  ${kind} at ${best.threshold}: precision ${(c.tp / Math.max(1, c.tp + c.fp)).toFixed(3)}, recall ${(c.tp / Math.max(1, c.tp + c.fn)).toFixed(3)}`)
}
