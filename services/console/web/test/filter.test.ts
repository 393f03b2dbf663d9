import t from 'tap'
import { filterOf } from '../src/filter.js'

t.test('no chosen value is no filter', async (t) => {
  t.equal(filterOf({}), null)
  t.equal(filterOf({ brand: [] }, '  '), null)
})

t.test('values of one attribute are alternatives; attributes all apply', async (t) => {
  t.equal(filterOf({ brand: ['Acme'] }), 'brand = "Acme"')
  t.equal(filterOf({ brand: ['Acme', 'Zed'], category: ['shoes'] }), '(brand = "Acme" OR brand = "Zed") AND category = "shoes"')
})

t.test('quotes and backslashes in a value cannot end its string', async (t) => {
  t.equal(filterOf({ title: ['12" pizza \\ oven'] }), 'title = "12\\" pizza \\\\ oven"')
})

t.test('an expression typed by hand is kept whole, before the facets', async (t) => {
  t.equal(filterOf({ brand: ['Acme'] }, 'price < 50 OR in_stock = true'), '(price < 50 OR in_stock = true) AND brand = "Acme"')
})
