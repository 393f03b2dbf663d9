import t from 'tap'
import { phrasings } from '../src/assistant/responder.js'
import { promisedActions } from '../src/assistant/promises.js'

t.test('no reply template promises an action', async (t) => {
  for (const [situation, options] of Object.entries(phrasings)) {
    for (const text of options) t.same(promisedActions(text), [], `${situation}: ${text}`)
  }
})

t.test('the promises replies used to make are caught', async (t) => {
  const promises = [
    'Sure — I have noted your request: "cancel my order". I will look into it.',
    'Thank you for telling us. Someone from support will pick this up.',
    'I have logged your report so the team can make it right.',
    'I am sorry — I have recorded it; our support team follows up on every report like this.',
    'Thanks for letting us know! I have passed your feedback on.',
    'Got it. I will take care of that.',
    "I'll refund the difference right away.",
    'We will email you a confirmation shortly.',
    'A team member will contact you within a day.',
    'Your complaint has been escalated to the manager.',
    'Our team will get back to you soon.'
  ]
  for (const text of promises) t.not(promisedActions(text).length, 0, text)
})

t.test('statements of fact and offers to search are not promises', async (t) => {
  const plain = [
    'Standard delivery takes three to five working days.',
    'Returns are accepted within 30 days; we refund the price of the item once it arrives.',
    'I will search the catalog for it if you tell me a brand.',
    'The shop\'s team can help with that if you contact them directly.',
    'These are the closest matches I have:'
  ]
  for (const text of plain) t.same(promisedActions(text), [], text)
})
