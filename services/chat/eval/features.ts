// EVAL_FEATURES: the evidence the assistant weighed for each development question and request, one
// JSON line per candidate with its features and whether it is one of the entry's expected sources
// holding one of its facts (label 1) or not (0): the data eval/fit.ts fits the relevance model on. Unanswerable questions give
// only negatives, which is what teaches the model when nothing answers. For the questions a page answers, the
// sentences it chooses from too (kind 'sentence'), labelled 1 when they hold an expected fact or part of one.
// Each row names its dataset (`dataset`: help/<name>, for eval/fit.ts's leave-one-corpus-out check) and what it weighs (`ref`: document#chunk, and .index for a sentence, with its opening `text`),
// so that a miss can be read back to the page and sentence.
import { appendFile, writeFile } from 'node:fs/promises'
import type { Message } from '@chatsearch/contracts'
import type { Assistant } from '../src/assistant/assistant.js'
import { norm, type Question, type Request } from './datasets.js'

/** Whether a sentence holds a fact, or a part of one that spans sentences (the sentence within it, or the fact's first or last eight words). */
function overlaps (sentence: string, fact: string): boolean {
  if (sentence.includes(fact)) return true
  // A sentence within a fact spanning sentences, when long enough to be a part of it and not a word that happens to be there.
  if (sentence.split(' ').length >= 4 && fact.includes(sentence)) return true
  const words = fact.split(' ')
  const PART = 8
  return words.length > PART && (sentence.includes(words.slice(0, PART).join(' ')) || sentence.includes(words.slice(-PART).join(' ')))
}

export function evidenceFeatures (assistant: Assistant, file: string) {
  let ready: Promise<void> | undefined
  const write = async (rows: unknown[]) => {
    ready ??= writeFile(file, '')
    await ready
    if (rows.length > 0) await appendFile(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
  }
  return {
    async question (projectId: string, dataset: string, q: Question) {
      const evidence = await assistant.gather(projectId, q.say, [])
      // The passage that answers: of an expected source, and holding one of the expected facts.
      const sources = new Set(q.sources ?? [])
      const facts = (q.facts ?? []).map(norm)
      const answers = (text: string) => facts.some((f) => norm(text).includes(f))
      await write(evidence.passages.map((e) => ({ kind: e.kind, ref: `${e.passage.documentId}#${e.passage.chunkId}`, features: e.features, label: sources.has(e.passage.documentId) && answers(e.passage.text) ? 1 : 0, entry: q.id, dataset, answerable: q.category !== 'unanswerable' })))
      // The sentences a page answer would choose from: those of an expected source holding part of a
      // fact; an unanswerable question's are all negatives (what a floor under the best sentence's score would be fitted on).
      const sentences = await assistant.sentenceCandidates(q.say, evidence)
      await write(sentences.map((c) => ({ kind: 'sentence', ref: `${c.passage.documentId}#${c.passage.chunkId}.${c.index}`, text: c.text.slice(0, 160), features: c.features, label: sources.has(c.passage.documentId) && facts.some((f) => overlaps(norm(c.text), f)) ? 1 : 0, entry: q.id, dataset, answerable: q.category !== 'unanswerable' })))
    },
    async request (projectId: string, dataset: string, r: Request) {
      const evidence = await assistant.gather(projectId, r.say, [])
      const relevant = new Set(r.relevant)
      await write(evidence.items.map((e) => ({ kind: 'item', features: e.features, label: relevant.has(e.item.id) ? 1 : 0, entry: r.id, dataset, answerable: r.relevant.length > 0 })))
    }
  }
}

/** The best evidence of a message, one line each, to stderr: what the relevance model saw, and the sentences ranked first. */
export async function explain (assistant: Assistant, projectId: string, message: string, history: Message[] = []): Promise<void> {
  const evidence = await assistant.gather(projectId, message, history)
  const round = (features: object) => Object.entries(features).map(([k, v]) => `${k} ${(v as number).toFixed(2)}`).join(', ')
  const lines = [
    ...evidence.passages.slice(0, 4).map((e) => `    ${e.relevance.toFixed(3)} ${e.kind} ${e.passage.documentId}#${e.passage.chunkId} (${round(e.features)})`),
    ...evidence.items.slice(0, 4).map((e) => `    ${e.relevance.toFixed(3)} item ${e.item.id} (${round(e.features)})`),
    ...(evidence.text === message ? [] : [`    retrieved with ${JSON.stringify(evidence.text)}`]),
    ...(await assistant.sentenceCandidates(message, evidence)).slice(0, 3).map((c) => `    sentence ${c.score.toFixed(3)} ${c.passage.documentId}#${c.passage.chunkId}.${c.index} (${round(c.features)}) ${JSON.stringify(c.text.slice(0, 100))}`)
  ]
  process.stderr.write(`  explain ${JSON.stringify(message)}\n${lines.join('\n')}\n`)
}
