import t from 'tap'
import { parseSynonyms, synonymsText } from '../src/synonyms.js'

t.test('one line per key, its alternatives after a colon', async (t) => {
  t.same(parseSynonyms('phone: smartphone, mobile\nsan francisco: sf'), { synonyms: { phone: ['smartphone', 'mobile'], 'san francisco': ['sf'] } })
  t.same(parseSynonyms(''), { synonyms: {} }, 'nothing written: no synonyms')
  t.same(parseSynonyms('\n  phone :  smartphone ,, mobile  \n\n'), { synonyms: { phone: ['smartphone', 'mobile'] } }, 'spaces, blank lines and empty items ignored')
  t.same(parseSynonyms('phone: smartphone\nphone: mobile, smartphone'), { synonyms: { phone: ['smartphone', 'mobile'] } }, 'a key on two lines keeps both, each alternative once')
  t.same(parseSynonyms('time: 10:30'), { synonyms: { time: ['10:30'] } }, 'the first colon separates')
  t.same(Object.keys((parseSynonyms('__proto__: x') as { synonyms: object }).synonyms), ['__proto__'], 'any key is a key')
})

t.test('a line the form cannot read is named', async (t) => {
  for (const [text, line] of [['phone smartphone', 1], ['phone: smartphone\n: mobile', 2], ['phone:', 1], ['phone: , ,', 1]] as const) {
    const parsed = parseSynonyms(text)
    t.ok('error' in parsed, text)
    if ('error' in parsed) t.match(parsed.error, new RegExp(`^Synonyms, line ${line}: `), text)
  }
})

t.test('shown as they are read back', async (t) => {
  const synonyms = { phone: ['smartphone', 'mobile'], sf: ['san francisco'] }
  t.equal(synonymsText(synonyms), 'phone: smartphone, mobile\nsf: san francisco')
  t.same(parseSynonyms(synonymsText(synonyms)), { synonyms })
  t.equal(synonymsText({}), '')
})
