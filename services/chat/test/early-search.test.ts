import t from 'tap'
import Fastify from 'fastify'
import type { Classification } from '@chatsearch/contracts'
import { Assistant } from '../src/assistant/assistant.js'
import type { Classifier } from '../src/assistant/classifier.js'
import type { Retriever } from '../src/assistant/retriever.js'

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
    async items (_projectId, ids) { return { items: ids.map(() => undefined) } }
  }
}

t.test('a message worded as a question is searched while it is classified', async (t) => {
  const events: string[] = []
  const assistant = new Assistant({ classifier: slowClassifier('question', events), retriever: notingRetriever(events), log })
  await assistant.answer('p1', 'Do you have trail running shoes?', [])
  t.same(events, ['catalog', 'knowledge', 'classified'], 'both searches start before the class is known')
})

t.test('a message not worded as a question or a product request waits for its class', async (t) => {
  const events: string[] = []
  const assistant = new Assistant({ classifier: slowClassifier('request', events), retriever: notingRetriever(events), log })
  await assistant.answer('p1', 'send me a list of gaming laptops with an RTX 4070', [])
  t.same(events, ['classified', 'catalog', 'knowledge'])
})

t.test('a greeting or a handoff is never searched early', async (t) => {
  for (const message of ['Good morning?', 'Where is my order 4411?']) {
    const events: string[] = []
    const assistant = new Assistant({ classifier: slowClassifier('greeting', events), retriever: notingRetriever(events), log })
    await assistant.answer('p1', message, [])
    t.same(events.slice(0, 1), ['classified'], message)
  }
})

t.test('an early search the class does not want is dropped: same reply, no failure counted', async (t) => {
  const message = 'Why is the blender you sent me broken already?'
  const failing = new Assistant({ classifier: slowClassifier('complaint', []), retriever: notingRetriever([], 'search service down'), log })
  const quiet = new Assistant({ classifier: slowClassifier('complaint', []), retriever: notingRetriever([]), log })
  const dropped = await failing.answer('p1', message, [])
  t.same(dropped, await quiet.answer('p1', message, []))
  t.equal(dropped.handoff, true, 'a complaint is handed off')
  t.same(dropped.citations, [])
  t.equal(failing.stats.retrievalFailures, 0, 'the failed search was not used, so not counted')
  t.equal(failing.stats.knowledgeFailures, 0)
})
