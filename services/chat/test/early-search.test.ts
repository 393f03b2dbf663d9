import t from 'tap'
import Fastify from 'fastify'
import type { Classification } from '@chatsearch/contracts'
import { Assistant } from '../src/assistant/assistant.js'
import type { Classifier } from '../src/assistant/classifier.js'
import type { Retriever } from '../src/assistant/types.js'

const log = Fastify({ logger: false }).log

/** A classifier that takes a while and says what it was told to, noting when it answered. */
function slowClassifier (label: Classification, events: string[]): Classifier {
  return {
    async classify () {
      await new Promise((resolve) => setTimeout(resolve, 30))
      events.push('classified')
      return { label, confidence: 1 }
    }
  }
}

/** A retriever that notes each search and finds nothing, or fails when told to. */
function notingRetriever (events: string[], failure?: string): Retriever {
  const result = failure === undefined ? {} : { failure }
  return {
    async retrieve () { events.push('catalog'); return { items: [], ...result } },
    async knowledge () { events.push('knowledge'); return { passages: [], ...result } },
    async items (_projectId, ids) { return { items: ids.map(() => undefined) } },
    async page () { return { passages: [] } }
  }
}

t.test('every turn but a greeting retrieves from the catalog and the knowledge while it is classified', async (t) => {
  for (const message of ['Do you have trail running shoes?', 'send me a list of gaming laptops with an RTX 4070', 'Where is my order 4411?', 'my laptop will not power on, even plugged in']) {
    const events: string[] = []
    const assistant = new Assistant({ classifier: slowClassifier('request', events), retriever: notingRetriever(events), log })
    await assistant.answer('p1', message, [])
    t.same(events, ['catalog', 'knowledge', 'classified'], message)
  }
})

t.test('a greeting is not searched', async (t) => {
  const events: string[] = []
  const assistant = new Assistant({ classifier: slowClassifier('greeting', events), retriever: notingRetriever(events), log })
  const answer = await assistant.answer('p1', 'Good morning!', [])
  t.same(events, ['classified'])
  t.equal(answer.decision.route, 'small_talk')
})

t.test('a complaint nothing answers is handed off; a failed search is counted, and the reply says nothing of it', async (t) => {
  const message = 'Why is the blender you sent me broken already? This is unacceptable.'
  const failing = new Assistant({ classifier: slowClassifier('complaint', []), retriever: notingRetriever([], 'search service down'), log })
  const quiet = new Assistant({ classifier: slowClassifier('complaint', []), retriever: notingRetriever([]), log })
  const answered = await failing.answer('p1', message, [])
  t.same(answered.reply, (await quiet.answer('p1', message, [])).reply)
  t.equal(answered.handoff, true, 'a complaint is handed off')
  t.same(answered.decision, { route: 'handoff', handoff_reason: 'complaint', evidence: [] })
  t.same(answered.citations, [])
  t.equal(failing.stats.retrievalFailures, 1, 'the failed search is counted')
  t.equal(failing.stats.knowledgeFailures, 1)
})
