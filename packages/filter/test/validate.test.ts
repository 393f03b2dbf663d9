import t from 'tap'
import { checkFilterable, filterAttributes, FilterError, matchPattern, parseFilter, type FilterNode } from '../src/index.js'

function check (filter: string, filterable: string[]): FilterError | undefined {
  try {
    checkFilterable(parseFilter(filter)!, filterable)
  } catch (error) {
    if (error instanceof FilterError) return error
    throw error
  }
  return undefined
}

t.test('filterable attributes and their sub-paths pass', async (t) => {
  const filterable = ['brand', 'price', 'variants.color', 'dog race']
  for (const filter of ['brand = x', 'brand.name = x', 'brand.address.city EXISTS', 'price 1 TO 2 AND variants.color IN [a]', '"dog race" = x', 'NOT (price > 1 OR brand IS NULL)']) {
    t.equal(check(filter, filterable), undefined, filter)
  }
  t.equal(check('anything.at.all = 1', ['*']), undefined, '* allows everything')
  t.equal(check('product_price > 1', ['product_*']), undefined, 'prefix pattern')
  t.equal(check('sale_price > 1', ['*_price']), undefined, 'suffix pattern')
})

t.test('an attribute that is not filterable is named, with its position and the filterable attributes', async (t) => {
  const cases: Array<[string, string[], number, string]> = [
    ['color = red', ['price', 'brand'], 0, 'Attribute `color` at position 0 is not filterable. Available filterable attributes are: `brand`, `price`.'],
    ['price > 1 AND NOT color = red', ['price', 'brand'], 18, 'Attribute `color` at position 18 is not filterable. Available filterable attributes are: `brand`, `price`.'],
    ['variants.size = 1', ['variants.color'], 0, 'Attribute `variants.size` at position 0 is not filterable. Available filterable attributes are: `variants.color`.'],
    ['variants = 1', ['variants.color'], 0, 'Attribute `variants` at position 0 is not filterable. Available filterable attributes are: `variants.color`.'],
    ['brandname = 1', ['brand'], 0, 'Attribute `brandname` at position 0 is not filterable. Available filterable attributes are: `brand`.'],
    ['"😀" = 1 OR a IS NOT EMPTY', ['b'], 0, 'Attribute `😀` at position 0 is not filterable. Available filterable attributes are: `b`.'],
    ['x = 1 OR "😀" IN [1]', ['x'], 9, 'Attribute `😀` at position 9 is not filterable. Available filterable attributes are: `x`.'],
    ['a = 1', [], 0, 'Attribute `a` at position 0 is not filterable. This index does not have configured filterable attributes.']
  ]
  for (const [filter, filterable, position, message] of cases) {
    const error = check(filter, filterable)
    t.equal(error?.position, position, filter)
    t.equal(error?.message, message, filter)
  }
})

t.test('hand-built trees have no position', async (t) => {
  const node: FilterNode = { type: 'exists', attribute: 'a' }
  t.throws(() => checkFilterable(node, ['b']), { name: 'FilterError', position: -1, message: 'Attribute `a` is not filterable. Available filterable attributes are: `b`.' })
})

t.test('filterAttributes lists each attribute once, in order', async (t) => {
  t.strictSame(filterAttributes(parseFilter('b = 1 AND (a = 2 OR NOT b EXISTS) OR c IN [1]')!), ['b', 'a', 'c'])
})

t.test('matchPattern', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['brand', 'brand', 'match'],
    ['brand', 'brand.name', 'match'],
    ['brand', 'brandname', 'none'],
    ['brand.name', 'brand', 'parent'],
    ['brand.name', 'bran', 'none'],
    ['*', 'x.y', 'match'],
    ['br*', 'brand.name', 'match'],
    ['*name', 'brand.name', 'match'],
    ['*an*', 'brand', 'match']
  ]
  for (const [pattern, path, expected] of cases) t.equal(matchPattern(pattern, path), expected, `${pattern} / ${path}`)
})
