import t from 'tap'
import type { Citation, Message } from '@chatsearch/contracts'
import { handoffReason } from '../src/assistant/handoff.js'
import { resolveReference } from '../src/assistant/references.js'
import { clarifyingReply, referenceReply } from '../src/assistant/reference-reply.js'
import { faqAnswer, pageAnswer, segmentsOf, sentenceCandidates } from '../src/assistant/sentences.js'
import { weighPassages } from '../src/assistant/evidence.js'
import type { KnowledgePassage } from '../src/assistant/types.js'
import { stems } from '../src/assistant/words.js'
import { contentWords } from '../src/assistant/words.js'
import { detectLanguage, isGreeting, languageNote } from '../src/assistant/language.js'
import { refineClassification } from '../src/assistant/understand.js'
import { retrievalText } from '../src/assistant/assistant.js'

t.test('handoffReason: only a person can act on an order, a payment or an account, or be a person', async (t) => {
  const actions = [
    'I want to cancel my order', 'Please refund my order, the jacket did not fit', 'can you change my delivery address?',
    'where is my order?', 'Where\'s my parcel', 'my package has not arrived', 'I need to return my order', 'refund me now',
    'I want my money back', 'cancel the order please', 'Could you cancel it?', 'delete my account', 'my order is late',
    'Can you track my parcel?', 'I would like a refund'
  ]
  const people = ['Can I talk to a real person please?', 'speak to a human', 'agent please', 'I want to speak with someone from your team', 'how do I contact customer service?']
  const questions = [
    'What is your return policy?', 'Can I return a jacket after 20 days?', 'How long do refunds take?', 'How do I return an item?',
    'Do you ship to Canada?', 'Is there a money back guarantee?', 'Which payment methods do you accept?', 'do you have tents?',
    'gift for my dad who loves cooking, around $80', 'Is the warranty two years?', 'how much is the second one?', 'hello',
    'I want to know your refund policy', 'What happens if my parcel arrives damaged?'
  ]
  for (const m of actions) t.equal(handoffReason(m), 'action', m)
  for (const m of people) t.equal(handoffReason(m), 'person', m)
  for (const m of questions) t.equal(handoffReason(m), undefined, m)
})

t.test('contentWords: subject words, singular, small numbers as digits', async (t) => {
  t.same(contentWords('How long does shipping take?'), ['long', 'ship'])
  t.same(contentWords('Do you deliver to Canada?'), ['ship', 'canada'], 'the same thing in other words is one word')
  t.same(contentWords('Is the warranty two years?'), ['warranty', '2', 'year'])
  t.same(contentWords('Footwear has a 2-year warranty'), ['footwear', '2', 'year', 'warranty'])
  t.same(contentWords('What are the returns?'), ['return'])
})

const cite = (id: string, title: string): Citation => ({ source: 'catalog', reference: id, confidence: 0.8, title })
const tents = [cite('t1', 'Kestrel Tent'), cite('t2', 'Ridge Tent'), cite('t3', 'Cirque Tent')]
const history = (...replies: Citation[][]): Message[] => replies.flatMap((citations, i) => [
  { msg_id: `u${i}`, role: 'user' as const, content: 'question', timestamp: '2026-01-01T00:00:00.000Z', classification: 'question' as const },
  { msg_id: `a${i}`, role: 'assistant' as const, content: 'reply', timestamp: '2026-01-01T00:00:01.000Z', citations }
])

t.test('resolveReference: ordinals, pronouns and comparisons resolve from earlier citations', async (t) => {
  t.match(resolveReference('How much is the third one?', history(tents)), { items: [tents[2]], fields: ['price'] })
  t.match(resolveReference('and the second?', history(tents)), { items: [tents[1]], fields: [] }, 'nothing asked of it in particular: described')
  t.match(resolveReference('tell me about the second one', history(tents)), { items: [tents[1]], fields: [] })
  t.match(resolveReference('is the last one in stock', history(tents)), { items: [tents[2]], fields: ['in_stock'] })
  t.match(resolveReference('which of these two is better rated?', history(tents)), { items: [tents[0], tents[1]], compare: { field: 'rating', best: 'highest' } })
  t.match(resolveReference('which is cheaper, the first or the third?', history(tents)), { items: [tents[0], tents[2]], compare: { field: 'price', best: 'lowest' } })
  t.match(resolveReference('which of the first two is cheaper?', history(tents)), { items: [tents[0], tents[1]], compare: { field: 'price', best: 'lowest' } }, 'the first two: a span, not the first')
  t.match(resolveReference('and of the last 2, which is better rated?', history(tents)), { items: [tents[1], tents[2]], compare: { field: 'rating', best: 'highest' } })
  t.match(resolveReference('how much are the first three?', history(tents)), { items: tents, fields: ['price'] })
  t.same(resolveReference('Is it in stock?', history(tents)), { ambiguous: tents }, '"it" among three: ask which')
  const bags = [cite('b1', 'Gravity Waterproof Dry Bag'), cite('b2', 'Explorer 45L Backpack'), cite('b3', 'Venture Waterproof Duffel Bag')]
  const asked = (question: string): Message[] => history(bags).map((m) => m.role === 'user' ? { ...m, content: question } : m)
  t.match(resolveReference('how does it close?', asked('have you got a dry bag?')), { items: [bags[0]], features: ['close'] }, '"it": the one item whose title holds what was asked for')
  t.same(resolveReference('how does it close?', asked('any waterproof bags?')), { ambiguous: bags }, 'two hold it: ask which')
  t.match(resolveReference('Is it in stock?', history([tents[1]!])), { items: [tents[1]], fields: ['in_stock'] }, 'one item named: that one')
  t.match(resolveReference('And the price?', history([tents[1]!])), { items: [tents[1]], fields: ['price'] })
  t.match(resolveReference('is the first one waterproof?', history(tents, [tents[2]!])), { items: [tents[0]], features: ['waterproof'] }, 'ordinals point into the last list, not the last single item')
  t.equal(resolveReference('cheaper?', history([tents[1]!])), undefined, 'a refinement is a new search')
  t.equal(resolveReference('in black?', history(tents)), undefined)
  t.equal(resolveReference('do you have kayaks for two people with a paddle?', history(tents)), undefined, 'a new subject')
  t.equal(resolveReference('How much is the third one?', []), undefined, 'nothing named before')
  t.match(resolveReference(`what's the price of the ${tents[1]!.title}?`, history(tents)), { items: [tents[1]], fields: ['price'] }, 'an item named by its title')
  t.match(resolveReference(`is the ${tents[2]!.title!.toLowerCase()} in stock`, history(tents, [tents[0]!])), { items: [tents[2]], fields: ['in_stock'] }, 'by its title, from an earlier list')
})

t.test('referenceReply: the fields asked, what the catalog does not say, and the comparison', async (t) => {
  const items = [
    { id: 't1', title: 'Kestrel Tent', price: 366.99, in_stock: true, rating: 3.6, description: 'A light tent. Fully waterproof fly for storms.' },
    { id: 't2', title: 'Ridge Tent', price: 689.99, in_stock: false, rating: 4.2 }
  ]
  const both = referenceReply({ items: [tents[0]!, tents[1]!], fields: ['rating'], features: [], compare: { field: 'rating', best: 'highest' } }, items)
  t.equal(both.text, 'Kestrel Tent is rated 3.6 out of 5.\nRidge Tent is rated 4.2 out of 5.\nRidge Tent is better rated.')
  t.same(both.citations, [tents[0], tents[1]])
  const feature = referenceReply({ items: [tents[0]!], fields: [], features: ['waterproof', 'freestanding'] }, [items[0]])
  t.equal(feature.text, 'The catalog says of Kestrel Tent: "Fully waterproof fly for storms." The catalog\'s description of Kestrel Tent does not mention "freestanding".')
  const missing = referenceReply({ items: [tents[1]!], fields: ['color', 'price'], features: [] }, [items[1]])
  t.equal(missing.text, 'Ridge Tent costs $689.99. The catalog does not say its colour for Ridge Tent.')
  const described = { id: 't3', title: 'Cirque Tent', price: 240, description: 'A tunnel tent for two. Its fly comes in a bold red colour. It packs small.' }
  t.equal(referenceReply({ items: [tents[2]!], fields: ['color'], features: [] }, [described]).text,
    'The catalog does not list its colour for Cirque Tent, but its description says: "Its fly comes in a bold red colour."', 'no colour attribute: the description\'s sentence that names it')
  t.equal(referenceReply({ items: [tents[2]!], fields: ['color'], features: [] }, [{ ...described, description: 'A tunnel tent in orange and grey.' }]).text,
    'The catalog does not list its colour for Cirque Tent, but its description says: "A tunnel tent in orange and grey."', 'or a colour\'s name')
  t.equal(referenceReply({ items: [tents[2]!], fields: ['rating'], features: [] }, [{ ...described, description: 'Rated 5 stars by campers.' }]).text,
    'The catalog does not say its rating for Cirque Tent.', 'a rating is not taken from text')
  const gone = referenceReply({ items: [tents[2]!], fields: ['price'], features: [] }, [undefined])
  t.same(gone, { text: 'Cirque Tent is no longer in the catalog.', citations: [] })
  t.same(clarifyingReply(tents), { text: 'Which one do you mean: the first (Kestrel Tent), the second (Ridge Tent) or the third (Cirque Tent)?', citations: tents })
})

const passage = (p: Partial<KnowledgePassage> & Pick<KnowledgePassage, 'documentId' | 'text' | 'score'>): KnowledgePassage =>
  ({ chunkId: '0', kind: 'page', title: 'Shipping', section: 'Shipping', ...p })

/** The answer the given passages make to the message, as the assistant quotes it (relevance: the passage's score). */
const answer = (message: string, passages: KnowledgePassage[]) => {
  const answering = passages.map((passage) => ({ passage, relevance: passage.score }))
  return passages[0]?.kind === 'faq' ? faqAnswer(answering, stems(message)) : pageAnswer(message, stems(message), answering)
}

t.test('faqAnswer and pageAnswer: an FAQ verbatim, else the sentences that answer', async (t) => {
  const faq = passage({ documentId: 'faq-time', kind: 'faq', title: 'How long does shipping take?', section: '', text: 'Three to five days.', score: 0.8, url: 'https://x.example/faq#time' })
  const where = passage({ documentId: 'shipping', chunkId: '2', section: 'Shipping › Where we ship', text: 'We ship to all 50 states. Alaska and Hawaii take 2 to 4 extra days. We do not ship abroad.', score: 0.7, url: 'https://x.example/shipping#where' })
  t.match(answer('how long does shipping take', [faq]), { text: 'Three to five days.', citations: [{ source: 'faq', reference: 'faq-time', url: 'https://x.example/faq#time' }] })
  const alaska = answer('Do orders to Alaska take longer?', [where])
  t.equal(alaska.text, 'From the shop\'s help pages, Shipping › Where we ship: "Alaska and Hawaii take 2 to 4 extra days. We do not ship abroad." (https://x.example/shipping#where)',
    'the sentence that answers, and the one after it')
  const it = passage({ documentId: 'warranty', text: 'Boots have a two-year warranty. It covers the soles and seams. Socks are not covered.', score: 0.8 })
  t.match(answer('what does the warranty cover on soles?', [it]).text, /"Boots have a two-year warranty\. It covers the soles and seams\. Socks are not covered\."/, 'a sentence opening with "It" comes with the one before')
  t.match(alaska.citations, [{ source: 'knowledge', reference: 'shipping#2', title: 'Shipping › Where we ship', confidence: 0.7 }])
  const free = passage({ documentId: 'faq-free', kind: 'faq', title: 'Is shipping free?', section: '', text: 'Free over $50.', score: 0.7 })
  t.match(answer('Is shipping free and how long does it take?', [faq, free]), {
    text: '• How long does shipping take? Three to five days.\n• Is shipping free? Free over $50.', citations: [{ reference: 'faq-time' }, { reference: 'faq-free' }]
  }, 'two pairs, each answering a part')
  t.equal(answer('how long does shipping take', [faq, free]).text, 'Three to five days.', 'a second pair adds nothing: one')
  const found = passage({ documentId: 'power', text: 'Hold the power button for ten seconds. Then plug the charger in again.', score: 0.6 })
  t.match(answer('the thing stays dark', [found]).text, /"Hold the power button for ten seconds\. Then plug the charger in again\."/, 'found by meaning alone: its opening is quoted')
})

t.test('pageAnswer: the sentence of the shape asked for, its words close together', async (t) => {
  const orders = passage({ documentId: 'orders', title: 'Orders', section: 'Orders', score: 0.7, text: 'When you add a new order line, new allocations are created. An order is created once a customer completes the checkout.' })
  t.match(answer('When does an order get created?', [orders]).text, /: "An order is created once a customer completes the checkout\."/, 'the words side by side, and a condition for "when"')
  const columns = passage({ documentId: 'products', title: 'Products', section: 'Products › Columns', score: 0.7, text: 'The attributes topic says how attributes are shown as columns. Columns can be sorted. You can select up to 16 attributes as columns.' })
  t.match(answer('How many attributes can I pick as columns?', [columns]).text, /: "You can select up to 16 attributes as columns\."/, 'a number for "how many"')
  const types = passage({ documentId: 'orders', title: 'Orders', section: 'Orders › Order types', score: 0.7, text: 'Unreleased draft orders do not change stock levels.\nDraft orders - These are orders created by administrators.' })
  t.match(answer("what's a draft order?", [types]).text, /"Draft orders - These are orders created by administrators\."/, 'a definition for "what is"')
  const channels = passage({ documentId: 'channels', title: 'Channels', section: 'Channels › Restrictions', score: 0.7, text: 'Every channel is listed by its name. A channel can only be removed when it has no orders.' })
  t.match(answer('Can I remove a channel?', [channels]).text, /: "A channel can only be removed when it has no orders\."/, '"remove" meets "removed"')
  const diagnostics = passage({ documentId: 'diagnostics', title: 'Boot diagnostics', section: 'Boot diagnostics', score: 0.7, text: 'The diagnostics screen shows the bootloader version. To see the diagnostics screen, power down and remove the SD card.' })
  t.match(answer('How do I get the diagnostics screen?', [diagnostics]).text, /^From the shop's help pages, Boot diagnostics: "To see the diagnostics screen, power down and remove the SD card\."/, 'an instruction for "how do I"')
  const collections = passage({ documentId: 'collections', title: 'Collections', section: 'Collections', score: 0.7, text: 'Collections group products for a campaign. Unlike categories, creating collections is not required.' })
  t.match(answer('Do I have to use collections?', [collections]).text, /: "Unlike categories, creating collections is not required\."/, 'what is required or not for "do I have to"')
})

t.test('pageAnswer: the sentence after the one that matches comes before sentences that only add words', async (t) => {
  const sync = passage({ documentId: 'sync', title: 'Syncing', section: 'Syncing › Contacts', score: 0.7, text: 'Your phone syncs every hour. Signing in with your password will not work with two-factor login on, and the app says Unknown resource. Use an app password instead. Contacts stopped showing? Check the address book.' })
  const reply = answer('my phone stopped syncing contacts and the app says Unknown resource', [sync]).text
  t.match(reply, /the app says Unknown resource\. Use an app password instead\./, 'the fix that follows the problem is quoted with it')
})

t.test('pageAnswer: a sentence added for the words it adds comes with the sentence after it, or its whole section when short', async (t) => {
  const times = passage({ documentId: 'shipping', section: 'Shipping › Times', text: 'Standard orders ship within two days. Tracking links arrive by email.', score: 0.8 })
  const rates = passage({ documentId: 'rates', section: 'Shipping › Rates', score: 0.6, text: 'Rates are set per zone. If you offer free shipping, select Free as the rate. If shipping is charged, enter the price for each zone.' })
  const message = 'How long does standard shipping take, and can I offer free shipping?'
  t.match(answer(message, [times, rates]).text, /• Shipping › Rates: "Rates are set per zone\. If you offer free shipping, select Free as the rate\. If shipping is charged, enter the price for each zone\."/,
    'another section this short is one answer: quoted whole')
  const long = passage({
    documentId: 'rates',
    section: 'Shipping › Rates',
    score: 0.6,
    text: 'Rates are set per zone. ' + 'Each zone lists the countries it covers and the carriers that serve it, with their own delivery estimates. '.repeat(3) +
      'If you offer free shipping, select Free as the rate. Customers then see no charge at checkout. Zones without a rate are not offered at all.'
  })
  t.match(answer(message, [times, long]).text, /• Shipping › Rates: "If you offer free shipping, select Free as the rate\. Customers then see no charge at checkout\."$/,
    'in a longer one, the sentence after it, as after the best sentence')
})

t.test('pageAnswer: a quoted list keeps its items on their own lines; sentences of one paragraph stay on one', async (t) => {
  const fans = passage({ documentId: 'cooling', title: 'Cooling', section: 'Cooling › Fans', score: 0.7, text: 'The fan reacts to the temperature in the following way:\nbelow 50°C, the fan does not spin at all\nat 50°C, the fan turns on at a low speed\nat 60°C, the fan speed increases to a medium speed\nThe case has no fan of its own.' })
  t.match(answer('how does the fan react to the temperature?', [fans]).text,
    /: "The fan reacts to the temperature in the following way:\nbelow 50°C, the fan does not spin at all\nat 50°C, the fan turns on at a low speed\nat 60°C, the fan speed increases to a medium speed\n"?/)
  t.same(segmentsOf('One. Two.\nThree.\n\nFour. Five.').map((s) => [s.text, s.lineEnd]),
    [['One.', false], ['Two.', true], ['Three.', true], ['Four.', false], ['Five.', false]], 'a line break after a sentence, however many')
})

t.test('weighPassages: the passage that holds the message\'s words weighs more than one the search ranked as high that does not', async (t) => {
  const home = passage({ documentId: 'home', title: 'Home', section: 'Home › Dark mode', score: 0.5, text: 'To work in dark mode, open the dashboard menu and click Dark Mode.' })
  const apps = passage({ documentId: 'apps', title: 'Apps', section: 'Apps', score: 0.5, text: 'The dashboard lists the installed apps. Each app can work with the dashboard.' })
  const weighed = weighPassages([apps, home], stems('Can I work in dark mode in the dashboard?'))
  t.same(weighed.map((e) => e.passage.documentId), ['home', 'apps'])
  t.ok(weighed[0]!.relevance > weighed[1]!.relevance)
  t.match(weighed[0]!.features, { score: 0.5, coverage: 1, sentence: 1 })
  const scanner = weighPassages([home, apps], stems('Does the dashboard work with a barcode scanner?'))
  t.ok(scanner.every((e) => e.relevance < weighed[0]!.relevance), 'no page names a barcode scanner: the shared words weigh less')
  const pair = weighPassages([passage({ documentId: 'faq-dark', kind: 'faq', title: 'Is there a dark mode?', section: '', text: 'Yes: Dark Mode in the menu.', score: 0.6 })], stems('is there a dark mode'))
  t.match(pair[0], { kind: 'faq', features: { question: 1 } })
})

t.test('weighPassages: of two passages holding as many of the message\'s words, the one whose sentence or headings are closer in meaning weighs more', async (t) => {
  const a = passage({ documentId: 'a', title: 'Trash', section: 'Trash', score: 0.5, text: 'Deleted files stay in the trash for 30 days.' })
  const b = passage({ documentId: 'b', title: 'Sharing', section: 'Sharing', score: 0.5, text: 'Shared files can be deleted by their owner.' })
  const wanted = stems('where do deleted files go?')
  const bySentence = weighPassages([b, a], wanted, [0.5, 0.5], [0.3, 0.3], [0.4, 0.8])
  t.same(bySentence.map((e) => e.passage.documentId), ['a', 'b'])
  t.match(bySentence[0]!.features, { closest: 0.8, heading: 0.3 })
  const byHeadings = weighPassages([b, a], wanted, [0.5, 0.5], [0.2, 0.7], [0.6, 0.6])
  t.same(byHeadings.map((e) => e.passage.documentId), ['a', 'b'])
  t.ok(byHeadings[0]!.relevance > byHeadings[1]!.relevance)
  t.match(weighPassages([a], wanted)[0]!.features, { closest: 0, heading: 0 }, 'no embedder: no similarity')
})

t.test('detectLanguage: another language only when sure; English otherwise', async (t) => {
  const cases: Array<[string, string]> = [
    ['Quiero cancelar mi pedido', 'es'], ['¿Cuánto cuesta el envío?', 'es'], ['Combien coûte la livraison ?', 'fr'],
    ['Ist es auf Lager?', 'de'], ['Avete delle tende?', 'it'], ['Vocês têm barracas?', 'pt'], ['Heeft u tenten?', 'nl'],
    ['do you have tents?', 'en'], ['how much is the third one?', 'en'], ['espresso machine', 'en'], ['tents', 'en'],
    ['waterproof hiking boots under $150?', 'en'], ['Is the warranty two years?', 'en'],
    // Codes are no words of a language: without them these were read as Swedish and as Berber.
    ['davfs2 keeps warning me about my self-signed certificate', 'en'], ['Getting error 0x800700DF when I copy a big video to the mapped drive', 'en'],
    ['¿Tiene el modelo X200 en stock?', 'es'], ['404', 'en'],
    // A word tinyld knows from one small language's dictionary made it sure of that language.
    ['I want a handheld thing with maps on it for backcountry trips so I dont get lost', 'en'], ['handheld thing with maps', 'en'],
    ['Ich will ein Zelt, was kostet das?', 'de'], ['Je cherche une veste pour la pluie', 'fr'], ['Czy to jest w magazynie?', 'pl']
  ]
  for (const [message, code] of cases) t.equal(detectLanguage(message).code, code, message)
  t.equal(detectLanguage('Quiero cancelar mi pedido').name, 'Spanish')
  t.match(languageNote(detectLanguage('Quiero cancelar mi pedido')), /^Nota: entiendo sobre todo el inglés/)
  t.equal(languageNote(detectLanguage('do you have tents?')), undefined)
})

t.test('isGreeting: greetings in any language, and only greetings', async (t) => {
  for (const m of ['hola', '¡Hola!', 'Bonjour', 'hallo zusammen', 'Guten Tag', 'ciao', 'olá', 'hej', 'merhaba', 'привет', '你好', 'hi there!', 'Good morning', 'hello 👋']) t.ok(isGreeting(m), m)
  for (const m of ['hola, tienen tiendas?', 'hello, do you have tents?', 'hiking boots', 'high heels', 'holiday returns']) t.notOk(isGreeting(m), m)
})

t.test('handoffReason in the other languages noted', async (t) => {
  for (const m of ['Quiero cancelar mi pedido', '¿Dónde está mi pedido?', 'Je veux annuler ma commande', 'Ich möchte meine Bestellung stornieren', 'Wo ist meine Bestellung?', 'Quiero un reembolso']) t.equal(handoffReason(m), 'action', m)
  for (const m of ['Je veux parler à un humain', 'Quiero hablar con una persona', 'Ich möchte mit einem Mitarbeiter sprechen']) t.equal(handoffReason(m), 'person', m)
  for (const m of ['¿Cuánto cuesta el envío?', 'Avez-vous des tentes ?']) t.equal(handoffReason(m), undefined, m)
})

t.test('refineClassification: plain cases the classifier slips on', async (t) => {
  t.equal(refineClassification('hola', 'other'), 'greeting')
  t.equal(refineClassification('I want to cancel my order', 'question'), 'request')
  t.equal(refineClassification('my order never arrived and I want a refund', 'complaint'), 'complaint', 'a complaint stays one')
  t.equal(refineClassification('find red dresses size M under 60', 'other'), 'request')
  t.equal(refineClassification('Recommend a good book about history.', 'other'), 'other', 'the shop may sell no books')
  t.equal(refineClassification('Got the kettle yesterday and it looks great in my kitchen.', 'complaint'), 'feedback')
  t.equal(refineClassification('Great, the kettle arrived broken.', 'complaint'), 'complaint', 'praise words with a grievance')
  t.equal(refineClassification('Are you a real person?', 'other'), 'other', 'a question about the assistant is not a request for a person')
  t.equal(refineClassification('do you have tents?', 'question'), 'question')
  t.equal(refineClassification('Which Corvane smartwatches can I order right now?', 'request'), 'question', 'questions are not requests')
  t.equal(refineClassification('Any Zentel tablets under $400?', 'request'), 'question')
  t.equal(refineClassification('what would you recommend for a beginner drone pilot?', 'request'), 'request', 'asking for a recommendation is a request')
  t.equal(refineClassification('Can you find me a tent?', 'request'), 'request')
  t.equal(refineClassification('How do volcanoes form?', 'other'), 'other', 'off-topic questions stay other')
  t.equal(refineClassification("I've just taken up climbing, what do I need?", 'request'), 'question', 'a question after what the customer tells of themselves')
  t.equal(refineClassification('Our cat is 12 now. Which food suits older cats?', 'request'), 'question')
  t.equal(refineClassification('I need a new router, our house has 3 floors. what should I get?', 'request'), 'request', 'a need stated first is asked for')
  t.equal(refineClassification("We're looking for a tent, which one do you have for 4 people?", 'request'), 'request')
  t.equal(refineClassification('my earbuds broke, can you recommend new ones?', 'request'), 'request', 'asking for something to be done')
  t.equal(refineClassification('a present for my dad who likes photography, up to $200', 'request'), 'request')
})

t.test('retrievalText: a short message that leans on the turn before is retrieved with it', async (t) => {
  const turns = (...contents: string[]): Message[] => contents.map((content, i) => ({ msg_id: String(i), role: i % 2 === 0 ? 'user' : 'assistant', content, timestamp: '2026-01-01T00:00:00.000Z' }))
  const before = turns('How do I update the firmware?', 'From the shop\'s help pages, …')
  t.equal(retrievalText('and how long does that take?', before), 'How do I update the firmware? and how long does that take?')
  t.equal(retrievalText('what about the older models?', before), 'How do I update the firmware? what about the older models?')
  t.equal(retrievalText('Do you sell laptop sleeves in grey?', before), 'Do you sell laptop sleeves in grey?', 'a message with a subject of its own stands alone')
  t.equal(retrievalText('and how long does that take?', []), 'and how long does that take?', 'nothing before it')
  t.equal(retrievalText('and how long does that take?', [...before, ...turns('and how long does that take?')]), 'How do I update the firmware? and how long does that take?', 'the message itself, already stored, is not its own context')

  const mount = turns('how do I mount a USB stick?', '…', 'can it do that every time it starts?', '…')
  t.equal(retrievalText("what happens if the stick isn't plugged in when it boots?", mount),
    "how do I mount a USB stick? can it do that every time it starts? what happens if the stick isn't plugged in when it boots?", 'a chain of follow-ups carries the first turn\'s subject')
  const changed = turns('how do I mount a USB stick?', '…', 'Which keyboard layouts does the setup wizard offer?', '…')
  t.equal(retrievalText('and can I change it later?', changed), 'Which keyboard layouts does the setup wizard offer? and can I change it later?', 'a turn with a subject of its own ends the chain')
})

t.test('sentenceCandidates: of two sentences holding as many words, the one holding those other pages lack comes first', async (t) => {
  const page = passage({
    documentId: 'storage',
    title: 'External storage',
    section: 'External storage › Setup',
    score: 0.6,
    text: 'You can connect a USB stick to any port. Edit the fstab file to mount it automatically at boot. Without the stick attached, boot takes 90 seconds longer.'
  })
  const other = passage({ documentId: 'audio', title: 'Audio', section: 'Audio', score: 0.5, text: 'Audio goes to HDMI by default. A USB sound card can be chosen instead.' })
  const ranked = sentenceCandidates('how do I mount my USB stick automatically?', stems('how do I mount my USB stick automatically?'), [{ passage: page, relevance: 0.6 }, { passage: other, relevance: 0.2 }])
  t.equal(ranked[0]!.text, 'Edit the fstab file to mount it automatically at boot.')
  t.match(ranked[0]!.features, { words: 0.5, heading: 0, opening: 0, passage: 0.6 })
  t.ok(ranked[0]!.features.rare > ranked[1]!.features.rare, '"USB" is on the other page too')
  t.ok(ranked.findIndex((c) => c.passage === other) > 1, 'the other page\'s sentences after')
})
