import t from 'tap'
import { quoteAttribute, quoteValue } from '../src/index.js'

t.test('quoting helpers', async (t) => {
  t.equal(quoteValue('a"b\\c'), '"a\\"b\\\\c"')
  t.equal(quoteAttribute('brand.name'), 'brand.name')
  t.equal(quoteAttribute('in'), '"in"')
  t.equal(quoteAttribute('with space'), '"with space"')
  t.equal(quoteAttribute(''), '""')
  t.equal(quoteAttribute('_geo'), '"_geo"')
})
