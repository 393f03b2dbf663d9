import t from 'tap'
import { catalogItemsOfCsv } from '../src/catalog-csv.js'

t.test('a boolean field reads the ways spreadsheets write yes and no; other fields keep their text', async (t) => {
  const csv = 'id,in_stock,note\n' + ['TRUE,yes', 'False,no', 'yes,y', 'NO,n', '1,1', '0,0', ' y ,true', 'maybe,false'].map((row, i) => `i${i},${row}`).join('\n') + '\n'
  const items = catalogItemsOfCsv(csv) as Array<{ in_stock: unknown, note: unknown }>
  t.same(items.map((item) => item.in_stock), [true, false, true, false, true, false, true, 'maybe'], 'in_stock: TRUE/False, yes/NO, y, 1/0; anything else is left for the search service to refuse')
  t.same(items.map((item) => item.note), ['yes', 'no', 'y', 'n', 1, 0, true, false], 'an untyped field: only true and false are booleans, digits numbers, the rest text')
})
