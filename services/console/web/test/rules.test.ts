import t from 'tap'
import { parseRules, rulesText, ruleState } from '../src/rules.js'

const rule = { id: 'summer-boots', query: 'hiking boots', match: 'contains' as const, pin: [{ item_id: 'sku-1', position: 1 }], hide: ['sku-2'] }

t.test('the editor\'s text is the list as JSON, read back as it was shown', async (t) => {
  t.same(parseRules(rulesText([rule])), { rules: [rule] })
  t.same(parseRules(''), { rules: [] }, 'nothing written: no rules')
  t.same(parseRules('  []  '), { rules: [] })
  t.same(parseRules('[{"id":"r","query":"","match":"exact"}]'), { rules: [{ id: 'r', query: '', match: 'exact' }] }, 'an empty query is one (a browse); pin and hide may be left out')
})

t.test('what the form can see is named, rule by rule', async (t) => {
  for (const [text, message] of [
    ['[{"id":', /^Rules: this is not valid JSON/],
    ['{"rules":[]}', /^Rules: write a list/],
    ['[1]', /^Rule 1: write an object/],
    ['[{"query":"x","match":"exact"}]', /^Rule 1: "id" is required/],
    ['[{"id":"a","query":"x","match":"exact"},{"id":"a","query":"y","match":"exact"}]', /^Rule 2: the id "a" is already used/],
    ['[{"id":"a","match":"exact"}]', /^Rule 1 \(a\): "query" is required/],
    ['[{"id":"a","query":"x","match":"fuzzy"}]', /^Rule 1 \(a\): "match" is "exact" or "contains"/]
  ] as const) {
    const parsed = parseRules(text)
    t.ok('error' in parsed, text)
    if ('error' in parsed) t.match(parsed.error, message, text)
  }
  t.notOk('error' in parseRules('[{"id":"a","query":"x","match":"exact","pin":[{"item_id":"b","position":0}]}]'),
    'positions, dates and bounds are the search service\'s to check: its message is shown')
})

t.test('a rule is scheduled, active or ended by its window', async (t) => {
  const now = Date.parse('2026-07-01T00:00:00Z')
  t.equal(ruleState(rule, now), 'active', 'no window: always')
  t.equal(ruleState({ ...rule, active_from: '2026-08-01T00:00:00.000Z' }, now), 'scheduled')
  t.equal(ruleState({ ...rule, active_until: '2026-07-01T00:00:00.000Z' }, now), 'ended', 'the end is excluded')
  t.equal(ruleState({ ...rule, active_from: '2026-07-01T00:00:00.000Z', active_until: null }, now), 'active', 'the start is included; null is no bound')
})
