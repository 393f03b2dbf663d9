import t from 'tap'
import { FieldKind, flattenDocument, type FieldRow } from '../src/engines/embedded/flatten.js'
import { normalizeString, parseNumber } from '../src/engines/embedded/normalize.js'

const { Present, String: Str, Number: Num, Boolean: Bool, Null, Empty } = FieldKind
const row = (attr: string, kind: FieldRow['kind'], str: string | null = null, num: number | null = null, label?: string): FieldRow =>
  label === undefined ? { attr, kind, str, num } : { attr, kind, str, num, label }

t.test('scalars', async (t) => {
  t.strictSame(flattenDocument({ s: ' Héllo ', n: 10, f: -2.5, b: true, c: false, z: null, e: '', w: '   ' }), [
    row('s', Str, 'héllo', null, ' Héllo '),
    row('n', Num, '10', 10),
    row('f', Num, '-2.5', -2.5),
    row('b', Bool, 'true'),
    row('c', Bool, 'false'),
    row('z', Null),
    row('e', Empty),
    row('w', Str, '', null, '   ')
  ])
})

t.test('strings are case-folded and NFKC-normalised', async (t) => {
  const rows = flattenDocument({ a: 'ＡＢＣ', b: 'e\u0301', c: 'ﬁle', d: 'ÉCOLE', e: 'Straße' })
  t.strictSame(rows.map((r) => r.str), ['abc', 'é', 'file', 'école', 'straße'])
  t.equal(normalizeString('  MiXeD  '), 'mixed')
})

t.test('nested objects give dot paths; objects and arrays mark their own path present', async (t) => {
  t.strictSame(flattenDocument({ brand: { name: 'Nike', address: { city: 'Portland' } } }), [
    row('brand', Present),
    row('brand.name', Str, 'nike', null, 'Nike'),
    row('brand.address', Present),
    row('brand.address.city', Str, 'portland', null, 'Portland')
  ])
  t.strictSame(flattenDocument({ 'brand.name': 'Nike' }), [row('brand.name', Str, 'nike', null, 'Nike')], 'a dotted key is the same path')
})

t.test('arrays: one row per element, objects in arrays flatten under the array path', async (t) => {
  t.strictSame(flattenDocument({ tags: ['a', 'B', 'a', 3, true] }), [
    row('tags', Present),
    row('tags', Str, 'a', null, 'a'),
    row('tags', Str, 'b', null, 'B'),
    row('tags', Num, '3', 3),
    row('tags', Bool, 'true')
  ], 'duplicates removed')
  t.strictSame(flattenDocument({ variants: [{ color: 'red', size: 42 }, { color: 'Blue', size: null }, {}] }), [
    row('variants', Present),
    row('variants.color', Str, 'red', null, 'red'),
    row('variants.size', Num, '42', 42),
    row('variants.color', Str, 'blue', null, 'Blue'),
    row('variants.size', Null)
  ])
  t.strictSame(flattenDocument({ m: [[1, [2]], [], 'x'] }), [
    row('m', Present),
    row('m', Num, '1', 1),
    row('m', Num, '2', 2),
    row('m', Str, 'x', null, 'x')
  ], 'nested arrays flatten into the same path')
})

t.test('null and empty are the attribute\'s own value, not array elements', async (t) => {
  t.strictSame(flattenDocument({ a: [], o: {}, s: '' }), [row('a', Empty), row('o', Empty), row('s', Empty)])
  t.strictSame(flattenDocument({ a: [null, '', [], {}] }), [row('a', Present)], 'present, neither null nor empty')
  t.strictSame(flattenDocument({ v: [{ c: null, d: [], e: '' }] }), [row('v', Present), row('v.c', Null), row('v.d', Empty), row('v.e', Empty)])
})

t.test('values JSON would not store', async (t) => {
  const date = new Date('2024-01-02T03:04:05.000Z')
  t.strictSame(flattenDocument({ u: undefined, f: () => 1, d: date, big: 12n, inf: Infinity, nan: NaN, list: [undefined] }), [
    row('d', Str, '2024-01-02t03:04:05.000z', null, '2024-01-02T03:04:05.000Z'),
    row('big', Num, '12', 12),
    row('inf', Present),
    row('nan', Present),
    row('list', Present)
  ])
})

t.test('only the selected attributes', async (t) => {
  const doc = { id: 1, title: 'T', brand: { name: 'N', country: 'C' }, variants: [{ color: 'red', size: 1 }], price: 5 }
  t.strictSame(flattenDocument(doc, ['brand', 'price']).map((r) => r.attr), ['brand', 'brand.name', 'brand.country', 'price'])
  t.strictSame(flattenDocument(doc, ['brand.name']).map((r) => r.attr), ['brand.name'])
  t.strictSame(flattenDocument(doc, ['variants.color']), [row('variants.color', Str, 'red', null, 'red')])
  t.strictSame(flattenDocument(doc, ['*']).length, flattenDocument(doc).length)
  t.strictSame(flattenDocument(doc, ['br*']).map((r) => r.attr), ['brand', 'brand.name', 'brand.country'])
  t.strictSame(flattenDocument(doc, ['*color']).map((r) => r.attr), ['variants.color'])
  t.strictSame(flattenDocument(doc, []), [])
})

t.test('hostile documents', async (t) => {
  let deep: Record<string, unknown> = { leaf: 'x' }
  for (let i = 0; i < 10_000; i++) deep = { n: deep }
  const rows = flattenDocument(deep)
  t.equal(rows.length, 65, 'stops at 64 levels without a stack overflow')
  t.equal(rows.at(-1)!.kind, Present)
  const cyclic: Record<string, unknown> = { a: 1 }
  cyclic.self = cyclic
  t.ok(flattenDocument(cyclic).length > 0, 'a cycle ends at the depth limit')
  let nested: unknown[] = ['x']
  for (let i = 0; i < 10_000; i++) nested = [nested]
  t.strictSame(flattenDocument({ a: nested }), [row('a', Present)], 'deep arrays too')
})

t.test('parseNumber reads numbers as Meilisearch does', async (t) => {
  const cases: Array<[string, number | undefined]> = [
    ['10', 10], ['-10', -10], ['+10', 10], ['10.5', 10.5], ['.5', 0.5], ['5.', 5], ['1e3', 1000], ['1E-2', 0.01], ['007', 7],
    ['', undefined], [' 1', undefined], ['1 ', undefined], ['0x10', undefined], ['1_000', undefined], ['inf', undefined],
    ['Infinity', undefined], ['NaN', undefined], ['1e400', undefined], ['abc', undefined], ['1.2.3', undefined], ['-', undefined], ['e5', undefined]
  ]
  for (const [text, n] of cases) t.equal(parseNumber(text), n, JSON.stringify(text))
})
