import t from 'tap'
import { analyticsCsv, analyticsCsvColumns } from '../src/analytics-csv.js'
import { formatDuration } from '../src/format.js'
import type { Analytics } from '../src/api/types.js'

t.test('the analytics CSV is one row per day, the search figures joined by day, empty where nothing was measured', async (t) => {
  const figures = {
    chat: { chats_per_day: [{ day: '2026-11-27', chats: 2, messages: 9 }, { day: '2026-11-28', chats: 0, messages: 0 }] },
    search: {
      searches_per_day: [
        { day: '2026-11-27', searches: 40, autocompletes: 7, click_through_rate: 0.25, conversion_rate: 0.05, no_result_rate: 0.1, average_click_position: 2.5 },
        { day: '2026-11-28', searches: 0, autocompletes: 0, click_through_rate: null, conversion_rate: null, no_result_rate: null, average_click_position: null }
      ]
    }
  } as unknown as Analytics
  t.equal(analyticsCsv(figures), [
    analyticsCsvColumns.join(','),
    '2026-11-27,2,9,40,7,0.25,0.05,0.1,2.5',
    '2026-11-28,0,0,0,0,,,,'
  ].map((line) => line + '\r\n').join(''))
})

t.test('a wait reads in the largest unit that keeps it readable', async (t) => {
  t.equal(formatDuration(0.4), '0 s')
  t.equal(formatDuration(45), '45 s')
  t.equal(formatDuration(120), '2 min')
  t.equal(formatDuration(3 * 3600 + 1800), '3.5 h')
  t.equal(formatDuration(2.1 * 86400), '2.1 days')
})
