import t from 'tap'
import Fastify from 'fastify'
import type { Classification, Message } from '@chatsearch/contracts'
import { loadEmbedder } from '@chatsearch/embeddings'
import { Assistant } from '../src/assistant/assistant.js'
import { readCorpus, trainClassifier, type Classifier } from '../src/assistant/classifier.js'
import type { Embedder } from '@chatsearch/embeddings'
import type { KnowledgePassage, RetrievedItem, Retriever } from '../src/assistant/types.js'
import { promisedActions } from '../src/assistant/promises.js'
import { phrasings } from '../src/assistant/responder.js'
import { handoffReason } from '../src/assistant/handoff.js'
import { THRESHOLD } from '../src/assistant/relevance-weights.js'

// The decisions of decision 17 on fixed evidence: a retriever that returns what the test gives it
// (the search service's own behaviour is tested against a real one in assistant.test.ts and
// knowledge-and-handoff.test.ts), and a classifier that says what it is told.
const log = Fastify({ logger: false }).log
// The relevance model weighs closeness in meaning (its fitted weights assume an embedder, as a
// deployment always has): the real one.
const embedder = await loadEmbedder()
const says = (label: Classification): Classifier => ({ classify: async () => ({ label, confidence: 1 }) })

const power: KnowledgePassage = {
  documentId: 'power',
  chunkId: '0',
  kind: 'page',
  title: 'Power problems',
  section: 'Power problems › The laptop does not turn on',
  text: 'If the laptop does not turn on when plugged in, hold the power button for 30 seconds to reset it. Then connect the charger and press the power button again.',
  score: 0.8,
  url: 'https://help.example/power'
}
const boot = (id: string, title: string, price: number, category = 'Boots'): RetrievedItem =>
  ({ id, title, price, category, description: `${title} for hiking.`, semantic: 0.8, keyword: 1, rank: 0 })

function retriever (found: { passages?: KnowledgePassage[], items?: RetrievedItem[], pages?: Record<string, KnowledgePassage[]>, asked?: string[], categories?: string[] }): Retriever {
  return {
    retrieve: async () => ({ items: found.items ?? [], plan: { query: 'hiking boots', constraints: { brands: [], categories: found.categories ?? [], colors: [] } } }),
    knowledge: async () => ({ passages: found.passages ?? [] }),
    items: async (_projectId, ids) => ({ items: ids.map(() => undefined) }),
    page: async (_projectId, documentId) => {
      found.asked?.push(documentId)
      const page = found.pages?.[documentId]
      return page === undefined ? { passages: [], failure: 'search service answered 503' } : { passages: page }
    }
  }
}

// A help page in three chunks, of which the search found the first only (it names the feature; the
// steps are a section further on).
const twoStep = (chunkId: string, section: string, text: string): KnowledgePassage =>
  ({ documentId: 'two-step', chunkId, kind: 'page', title: 'Two-step login', section: `Two-step login › ${section}`, text, score: 0.7 })
const twoStepPage = [
  twoStep('0', 'About two-step login', 'Two-step login protects your account with a code from your phone as well as your password. It works with any authenticator app.'),
  twoStep('1', 'Turning it on', 'Open Settings, then Security, and switch on Two-step login. Scan the QR code with your authenticator app and type the code it shows.'),
  twoStep('2', 'Recovery codes', 'Keep the recovery codes somewhere safe: each lets you log in once without your phone.')
]

t.test('a problem the help pages solve is answered, with the offer of a person, not handed off', async (t) => {
  const assistant = new Assistant({ classifier: says('complaint'), retriever: retriever({ passages: [power] }), embedder, log })
  const answer = await assistant.answer('p', 'my laptop will not turn on, even when plugged in', [])
  t.equal(answer.handoff, false)
  t.equal(answer.classification, 'question', 'a problem the help pages answer is a request for help, not a complaint')
  t.match(answer.reply, /hold the power button for 30 seconds/)
  t.match(answer.reply, /a person/i, 'the offer of a person')
  t.match(answer.citations, [{ source: 'knowledge', reference: 'power#0', url: 'https://help.example/power' }])
  t.match(answer.decision, { route: 'knowledge', evidence: [{ source: 'knowledge', reference: 'power#0', used: true }] })
  t.same(promisedActions(answer.reply), [])
})

t.test('the answer may be a section away from the chunk the search found, on the same page', async (t) => {
  const asked: string[] = []
  const assistant = new Assistant({ classifier: says('question'), retriever: retriever({ passages: [twoStepPage[0]!], pages: { 'two-step': twoStepPage }, asked }), embedder, log })
  const answer = await assistant.answer('p', 'How do I switch on two-step login?', [])
  t.same(asked, ['two-step'], 'the page of the best passage is read, once')
  t.equal(answer.handoff, false)
  t.match(answer.reply, /Open Settings, then Security, and switch on Two-step login/, 'the steps, from the next section')
  t.match(answer.citations, [{ source: 'knowledge', reference: 'two-step#1', title: 'Two-step login › Turning it on' }])
  const weighed = answer.decision.evidence
  t.match(weighed.find((e) => e.reference === 'two-step#1'), { source: 'knowledge', used: true }, 'the team sees the chunk quoted among the evidence')
  t.match(weighed.find((e) => e.reference === 'two-step#0'), { source: 'knowledge', used: false })
  t.same(promisedActions(answer.reply), [])
})

t.test('a page that cannot be read leaves the chunks the search found to answer', async (t) => {
  const assistant = new Assistant({ classifier: says('question'), retriever: retriever({ passages: [power] }), embedder, log })
  const answer = await assistant.answer('p', 'my laptop will not turn on, what do I do?', [])
  t.equal(answer.handoff, false)
  t.match(answer.reply, /hold the power button for 30 seconds/)
  t.match(answer.citations, [{ source: 'knowledge', reference: 'power#0' }])
})

t.test('a grievance is handed off, with what the help pages say after it', async (t) => {
  const assistant = new Assistant({ classifier: says('complaint'), retriever: retriever({ passages: [power] }), embedder, log })
  const answer = await assistant.answer('p', 'my laptop will not turn on even plugged in, this is unacceptable', [])
  t.equal(answer.handoff, true)
  t.equal(answer.classification, 'complaint')
  t.match(answer.decision, { route: 'handoff', handoff_reason: 'complaint' })
  t.match(answer.reply, /flagged/)
  t.match(answer.reply, /hold the power button/)
})

t.test('"how do I …" about the customer\'s own account is a question, not an action for a person', async (t) => {
  const reset: KnowledgePassage = { ...power, documentId: 'password', title: 'Passwords', section: 'Passwords › Reset', text: 'To reset your password, open Settings and choose Reset password. A link arrives by email.' }
  const asked = new Assistant({ classifier: says('question'), retriever: retriever({ passages: [reset] }), embedder, log })
  const howTo = await asked.answer('p', 'How do I reset my password?', [])
  t.equal(howTo.handoff, false)
  t.match(howTo.reply, /open Settings and choose Reset password/)
  const action = await asked.answer('p', 'Can you reset my password?', [])
  t.equal(action.handoff, true, 'asking the shop to do it is an action')
  t.match(action.decision, { handoff_reason: 'action' })
})

t.test('a message with a subject of its own that nothing answers is a question for the team, whatever the classifier said', async (t) => {
  const nothing = new Assistant({ classifier: says('other'), retriever: retriever({}), embedder, log })
  const satellite = await nothing.answer('p', 'Can I use the router with a satellite connection?', [])
  t.equal(satellite.classification, 'question')
  t.match(satellite.decision, { route: 'handoff', handoff_reason: 'unanswered' })
  const led = await nothing.answer('p', 'the orange light blinks four times then pauses', [])
  t.equal(led.classification, 'question')
  t.equal(led.handoff, true)
  const answered = await new Assistant({ classifier: says('other'), retriever: retriever({ passages: [power] }), embedder, log })
    .answer('p', 'the laptop does not turn on when it is plugged in', [])
  t.equal(answered.classification, 'question', 'answered from the help pages: it was asked about')
  t.match(answered.reply, /hold the power button/)
  const ok = await nothing.answer('p', 'ok cool', [])
  t.equal(ok.classification, 'other', 'small talk stays small talk')
  t.equal(ok.handoff, false)
})

t.test('a question nothing answers is handed off; a product search nothing answers says so', async (t) => {
  const nothing = new Assistant({ classifier: says('question'), retriever: retriever({}), embedder, log })
  const discount = await nothing.answer('p', 'Is there a student discount?', [])
  t.equal(discount.handoff, true)
  t.match(discount.decision, { route: 'handoff', handoff_reason: 'unanswered', evidence: [] })
  const sofas = await nothing.answer('p', 'Do you sell sofas?', [])
  t.equal(sofas.handoff, false)
  t.match(sofas.decision, { route: 'no_match' })
  t.same(sofas.citations, [])
})

t.test('the items that answer, cited with their relevance', async (t) => {
  const items = [boot('b1', 'Ridge Hiking Boots', 180), boot('b2', 'Trail Hiking Boots', 120), boot('laces', 'Hiking Boots Laces', 9, 'Accessories')]
  items[2]!.semantic = 0.6
  const shop = new Assistant({ classifier: says('request'), retriever: retriever({ items }), embedder, log })
  const answer = await shop.answer('p', 'show me hiking boots', [])
  t.equal(answer.decision.route, 'catalog')
  t.ok(answer.citations.length > 0 && answer.citations.every((c) => c.source === 'catalog' && c.confidence > 0 && c.confidence <= 1))
  t.match(answer.reply, /Ridge Hiking Boots — \$180\.00/)
})

t.test('a help page is read whole only for a reply that quotes it', async (t) => {
  const care: KnowledgePassage = { ...power, documentId: 'boot-care', title: 'Hiking boots', section: 'Hiking boots › Choosing hiking boots', text: 'Hiking boots should fit snugly at the heel. Try hiking boots on in the afternoon, when feet are largest.' }
  const asked: string[] = []
  const items = [boot('b1', 'Ridge Hiking Boots', 180), boot('b2', 'Trail Hiking Boots', 120)]
  const shop = new Assistant({ classifier: says('request'), retriever: retriever({ items, passages: [care], pages: { 'boot-care': [care] }, asked }), embedder, log })
  const answer = await shop.answer('p', 'show me hiking boots', [])
  t.equal(answer.decision.route, 'catalog')
  t.ok(answer.decision.evidence.some((e) => e.source === 'knowledge' && e.score >= THRESHOLD), 'the page cleared the threshold (what reading it depended on before)')
  t.same(asked, [], 'the items answer: the page is not read')
  const help = new Assistant({ classifier: says('question'), retriever: retriever({ passages: [care], pages: { 'boot-care': [care] }, asked }), embedder, log })
  const question = await help.answer('p', 'How should hiking boots fit?', [])
  t.equal(question.decision.route, 'knowledge')
  t.same(asked, ['boot-care'], 'a reply that quotes the page reads it, once')
})

t.test('something of the customer\'s that fails is helped with or handed off, not answered with items', async (t) => {
  const earbuds = (id: string, title: string): RetrievedItem =>
    ({ id, title, price: 59, category: 'Earbuds', description: `${title}: wireless earbuds with a charging case.`, semantic: 0.8, keyword: 1, rank: 0 })
  const items = [earbuds('e1', 'Pulse Wireless Earbuds'), earbuds('e2', 'Echo Wireless Earbuds')]
  // The classifier is misled by the product's name into a request.
  const alone = new Assistant({ classifier: says('request'), retriever: retriever({ items }), embedder, log })
  const handed = await alone.answer('p', 'my wireless earbuds wont charge anymore', [])
  t.equal(handed.handoff, true, 'no help page solves it: a person does')
  t.equal(handed.classification, 'question', 'a request for help that nothing here answers, not a grievance')
  t.match(handed.decision, { route: 'handoff', handoff_reason: 'unanswered' })
  t.same(handed.citations, [], 'no earbuds offered for broken earbuds')
  t.same(promisedActions(handed.reply), [])
  // Asked, or with a request for help, it is the same: a question nobody here answers, no earbuds.
  for (const message of ['my earbuds wont charge anymore, can you help?', 'why do my earbuds keep failing to charge?']) {
    const asked = await alone.answer('p', message, [])
    t.equal(asked.classification, 'question', message)
    t.match(asked.decision, { route: 'handoff', handoff_reason: 'unanswered' }, message)
    t.same(asked.citations, [], message)
  }
  const complained = new Assistant({ classifier: says('complaint'), retriever: retriever({ items }), embedder, log })
  const help = await complained.answer('p', 'my laptop wont turn on, could you please help me?', [])
  t.equal(help.classification, 'question', 'asking the shop for help says nothing of what it did')
  t.match(help.decision, { route: 'handoff', handoff_reason: 'unanswered' })
  // The same kind of statement about what the shop did is a complaint.
  for (const message of ['my earbuds arrived broken in the package', 'since you replaced them my earbuds wont charge']) {
    const shop = await alone.answer('p', message, [])
    t.equal(shop.classification, 'complaint', message)
    t.match(shop.decision, { route: 'handoff', handoff_reason: 'complaint' }, message)
  }

  const charging: KnowledgePassage = {
    ...power,
    documentId: 'charging',
    title: 'Earbuds that do not charge',
    section: 'Earbuds that do not charge',
    text: 'If your wireless earbuds do not charge, clean the charging contacts in the case with a dry cotton swab. Then put the earbuds back in the case and close the lid for ten seconds.'
  }
  const helped = await new Assistant({ classifier: says('request'), retriever: retriever({ items, passages: [charging] }), embedder, log })
    .answer('p', 'my wireless earbuds wont charge anymore', [])
  t.equal(helped.handoff, false)
  t.equal(helped.classification, 'question', 'the help pages answer it: a request for help')
  t.match(helped.reply, /clean the charging contacts/)
  t.match(helped.reply, /a person/i, 'with the offer of a person')
  t.ok(helped.citations.every((c) => c.source === 'knowledge'), 'the page, not the items')

  // Whether something may be done asks for no items, even of a kind the catalog sells (the plan
  // names its category).
  const named = new Assistant({ classifier: says('question'), retriever: retriever({ items, categories: ['Earbuds'] }), embedder, log })
  for (const message of ['can I return earbuds if I opened them?', 'Hi, so can we swap earbuds after a week?']) {
    const may = await named.answer('p', message, [])
    t.same(may.citations, [], `${message}: no earbuds offered`)
    t.match(may.decision, { route: 'handoff', handoff_reason: 'unanswered' }, `${message}: nothing answers, so handed off, not "nothing in the catalog matches"`)
  }
  t.equal((await named.answer('p', 'can I buy earbuds here?', [])).decision.route, 'catalog', 'asking to buy is asking for products')
  t.equal((await named.answer('p', 'my earbuds wont charge', [])).decision.route, 'handoff', 'naming the kind of item that fails asks for none')
  // Asking for products as well is a request for them.
  const replace = await alone.answer('p', 'my wireless earbuds broke, can you recommend new ones?', [])
  t.equal(replace.decision.route, 'catalog')
  t.ok(replace.citations.length > 0 && replace.citations.every((c) => c.source === 'catalog'))
})

t.test('the message is embedded once, for the classifier and for choosing what to quote alike', async (t) => {
  const embedded: string[] = []
  const counting: Embedder = { dimensions: embedder.dimensions, embed: async (texts) => { embedded.push(...texts); return await embedder.embed(texts) } }
  const corpus = (await readCorpus()).slice(0, 120)
  const classifier = await trainClassifier(counting, corpus)
  embedded.length = 0
  const message = 'my laptop will not turn on, even when plugged in'
  const shared = new Assistant({ classifier, retriever: retriever({ passages: [power] }), embedder: counting, log })
  const answer = await shared.answer('p', message, [])
  t.match(answer.reply, /hold the power button/)
  t.equal(embedded.filter((e) => e === message).length, 1, 'one embedding of the message')
  const label = (await classifier.classify(message)).label
  t.equal(answer.classification === 'question' ? 'complaint' : answer.classification, label === 'question' ? 'complaint' : label, 'the label its own embedding gives')

  // A classifier of another encoder embeds the message itself.
  embedded.length = 0
  const other = await trainClassifier({ dimensions: embedder.dimensions, embed: (texts) => embedder.embed(texts) }, corpus)
  await new Assistant({ classifier: other, retriever: retriever({ passages: [power] }), embedder: counting, log }).answer('p', 'my phone will not turn on, even when plugged in', [])
  t.equal(embedded.filter((e) => e === 'my phone will not turn on, even when plugged in').length, 1, 'the assistant\'s own embedding, not passed to a classifier of another encoder')
})

t.test('the offer of a person names a request that is handed off, so the flag it speaks of is set', async (t) => {
  for (const offer of phrasings.offerPerson) t.match(offer, /ask to talk to a person/i, offer)
  for (const request of ['I would like to talk to a person', 'can I talk to a person?', 'I would like a person', 'a person please', 'I want a human']) {
    t.equal(handoffReason(request), 'person', request)
  }
  t.equal(handoffReason('I need a person-sized sleeping bag'), undefined, 'a product for a person is no request for one')
})

t.test('a follow-up\'s own words are searched only when the conversation\'s find nothing that answers', async (t) => {
  const returns: KnowledgePassage = {
    documentId: 'returns',
    chunkId: '3',
    kind: 'page',
    title: 'Returns and refunds',
    section: 'Returns and refunds › Items that cannot be returned',
    text: 'Opened earphones whose hygiene seal is broken cannot be returned, unless they are faulty.',
    score: 0.8
  }
  const history: Message[] = [
    { msg_id: 'm1', role: 'user', content: 'any wireless earbuds under $100?', timestamp: '2026-11-30T10:00:00.000Z' },
    { msg_id: 'm2', role: 'assistant', content: 'Here is what I found in the catalog.', timestamp: '2026-11-30T10:00:01.000Z' }
  ]
  const message = 'can I return earphones if I opened them?'
  // The search service as the test gives it: what each query finds.
  const searching = (found: (query: string) => KnowledgePassage[]) => {
    const queries: string[] = []
    const double: Retriever = { ...retriever({}), knowledge: async (_projectId, text) => { queries.push(text); return { passages: found(text) } } }
    return { queries, assistant: new Assistant({ classifier: says('question'), retriever: double, embedder, log }) }
  }

  // With both turns' words nothing answers; with its own, the returns page does.
  const fallback = searching((query) => query === message ? [returns] : [])
  const answered = await fallback.assistant.answer('p', message, history)
  t.equal(fallback.queries.length, 2, 'searched twice')
  t.not(fallback.queries[0], message, 'first with the conversation\'s words')
  t.equal(fallback.queries[1], message, 'then with the message alone')
  t.match(answered.reply, /hygiene seal is broken cannot be returned/)
  t.match(answered.citations, [{ source: 'knowledge', reference: 'returns#3' }])
  t.equal(answered.handoff, false)

  // When the conversation's words find it, the message alone is not searched.
  const first = searching(() => [returns])
  t.match((await first.assistant.answer('p', message, history)).citations, [{ reference: 'returns#3' }])
  t.equal(first.queries.length, 1, 'searched once')

  // When neither finds it, the turn is handed off as before.
  const neither = searching(() => [])
  t.match((await neither.assistant.answer('p', message, history)).decision, { route: 'handoff', handoff_reason: 'unanswered' })
  t.equal(neither.queries.length, 2)
})
