import type { Analytics } from './api/types.js'

/** The CSV columns of the analytics download: one row per day of the period. */
export const analyticsCsvColumns = ['day', 'conversations', 'messages', 'searches', 'autocompletes', 'click_through_rate', 'conversion_rate', 'no_result_rate', 'average_click_position']

/**
 * The figures of each day as CSV: a header row, then the days, earliest first, empty where a day had
 * nothing to measure; CRLF line ends (RFC 4180). Every field is a day (YYYY-MM-DD) or a number, which
 * hold no comma, quote or line break, so none needs quoting: joined by hand, where the browser build
 * of csv-stringify would add 35 KB to the page.
 */
export function analyticsCsv ({ chat, search }: Analytics): string {
  const searchDays = new Map(search.searches_per_day.map((d) => [d.day, d]))
  const rows = chat.chats_per_day.map((c) => {
    const s = searchDays.get(c.day)
    return [c.day, c.chats, c.messages, s?.searches ?? 0, s?.autocompletes ?? 0, s?.click_through_rate ?? '', s?.conversion_rate ?? '', s?.no_result_rate ?? '', s?.average_click_position ?? '']
  })
  return [analyticsCsvColumns, ...rows].map((row) => row.join(',') + '\r\n').join('')
}
