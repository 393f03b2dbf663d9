import type { ChatFilters } from '../api/chats.js'
import type { Classification } from '../api/types.js'
import { classLabels, classifications } from '../format.js'

const isDay = (text: string | undefined): text is string => text !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text))

/** The filters of the page's URL (?consumer_id=&classification=&needs_human=&from=&to=), dates as days. */
export function filtersOf (query: Record<string, string>): ChatFilters {
  const filters: ChatFilters = {}
  if (query.consumer_id) filters.consumer_id = query.consumer_id
  if (query.classification !== undefined && query.classification in classLabels) filters.classification = query.classification as Classification
  if (query.needs_human === 'true' || query.needs_human === 'false') filters.needs_human = query.needs_human
  if (isDay(query.from)) filters.from = query.from
  if (isDay(query.to)) filters.to = query.to
  return filters
}

/** The API's from/to are instants: a day chosen in the form covers the whole of that local day. */
export function apiFilters (filters: ChatFilters): ChatFilters {
  const dayStart = (day: string) => new Date(`${day}T00:00:00`).toISOString()
  const dayEnd = (day: string) => new Date(`${day}T23:59:59.999`).toISOString()
  return {
    ...filters,
    ...(filters.from === undefined ? {} : { from: dayStart(filters.from) }),
    ...(filters.to === undefined ? {} : { to: dayEnd(filters.to) })
  }
}

export function ChatFilterForm ({ filters, onApply }: { filters: ChatFilters, onApply: (filters: ChatFilters) => void }) {
  return (
    <form
      class='filters' aria-label='Filter conversations' onSubmit={(e) => {
        e.preventDefault()
        const data = new FormData(e.currentTarget)
        onApply(filtersOf(Object.fromEntries([...data].map(([k, v]) => [k, String(v).trim()]))))
      }}
    >
      <div class='field'>
        <label for='f-consumer'>Consumer</label>
        <input id='f-consumer' name='consumer_id' defaultValue={filters.consumer_id ?? ''} autocapitalize='none' spellcheck={false} />
      </div>
      <div class='field'>
        <label for='f-class'>Classification</label>
        <select id='f-class' name='classification' defaultValue={filters.classification ?? ''}>
          <option value=''>Any</option>
          {classifications.map((c) => <option key={c} value={c}>{classLabels[c]}</option>)}
        </select>
      </div>
      <div class='field'>
        <label for='f-human'>Handed off</label>
        <select id='f-human' name='needs_human' defaultValue={filters.needs_human ?? ''}>
          <option value=''>Any</option>
          <option value='true'>Handed off</option>
          <option value='false'>Not handed off</option>
        </select>
      </div>
      <div class='field'>
        <label for='f-from'>From</label>
        <input id='f-from' name='from' type='date' defaultValue={filters.from ?? ''} />
      </div>
      <div class='field'>
        <label for='f-to'>To</label>
        <input id='f-to' name='to' type='date' defaultValue={filters.to ?? ''} />
      </div>
      <div class='field field-button'>
        <button type='submit' class='primary'>Apply filters</button>
      </div>
    </form>
  )
}
