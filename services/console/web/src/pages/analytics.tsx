import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { getAnalytics } from '../api/analytics.js'
import type { Analytics as Figures } from '../api/types.js'
import { analyticsCsv } from '../analytics-csv.js'
import { ChartView } from '../components/chart.js'
import { sourceNames } from '../components/citations.js'
import { reasonLabels } from '../components/decision.js'
import { ProjectFrame, useProject } from '../components/project-frame.js'
import { ErrorAlert, Loading } from '../components/status.js'
import { classLabels, classifications, formatDate, formatDuration, formatPercent } from '../format.js'
import { useLoad } from '../hooks.js'

/** The numbers of a chart as a table, for screen readers. */
function DataTable ({ caption, columns, rows }: { caption: string, columns: string[], rows: Array<Array<string | number>> }) {
  return (
    // In a hidden box: a table grows to fit its cells whatever width it is given.
    <div class='sr-only'>
      <table>
        <caption>{caption}</caption>
        <thead><tr>{columns.map((c) => <th scope='col' key={c}>{c}</th>)}</tr></thead>
        <tbody>{rows.map((r, i) => <tr key={i}>{r.map((cell, j) => j === 0 ? <th scope='row' key={j}>{cell}</th> : <td key={j}>{cell}</td>)}</tr>)}</tbody>
      </table>
    </div>
  )
}

function Figure ({ id, title, children }: { id: string, title: string, children: ComponentChildren }) {
  return (
    <section aria-labelledby={id} class='card figure'>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  )
}

/** A query short enough to leave the bars room on a phone; the table holds it whole. */
const shorten = (query: string) => query.length > 24 ? query.slice(0, 23) + '…' : query

function QueryChart ({ id, title, rows, empty }: { id: string, title: string, rows: Array<{ query: string, count: number }>, empty: string }) {
  return (
    <Figure id={id} title={title}>
      {rows.length === 0
        ? <p>{empty}</p>
        : (
          <>
            <ChartView kind='bar' horizontal labels={rows.map((r) => shorten(r.query))} series={[{ label: 'Searches', values: rows.map((r) => r.count) }]} />
            <DataTable caption={title} columns={['Query', 'Searches']} rows={rows.map((r) => [r.query, r.count])} />
          </>
          )}
    </Figure>
  )
}

/** A figure for a chart, to a tenth; null (nothing to measure that day) stays a gap in the line. */
const tenth = (value: number | null) => value === null ? null : Math.round(value * 10) / 10
const percent = (rate: number | null) => tenth(rate === null ? null : rate * 100)
/** A figure for a table; '—' for a day with nothing to measure. */
const shown = (value: number | null, format: (n: number) => string) => value === null ? '—' : format(value)
const position = (n: number) => n.toFixed(1)

/** What became of each day's searches: the rates of POST /search and POST /events, and where shoppers clicked. */
function SearchOutcomes ({ days }: { days: Figures['search']['searches_per_day'] }) {
  const labels = days.map((d) => d.day)
  return (
    <>
      <Figure id='search-outcomes' title='Search outcomes per day'>
        <ChartView
          kind='line' labels={labels}
          series={[
            { label: 'Click-through rate (%)', values: days.map((d) => percent(d.click_through_rate)) },
            { label: 'Conversion rate (%)', values: days.map((d) => percent(d.conversion_rate)) },
            { label: 'No-result rate (%)', values: days.map((d) => percent(d.no_result_rate)) }
          ]}
        />
        <p class='hint'>Clicks and conversions are those your shop's pages send to the search service's POST /events, counted on the day of their search.</p>
        <DataTable
          caption='Search outcomes per day' columns={['Day', 'Click-through rate', 'Conversion rate', 'No-result rate']}
          rows={days.map((d) => [d.day, shown(d.click_through_rate, formatPercent), shown(d.conversion_rate, formatPercent), shown(d.no_result_rate, formatPercent)])}
        />
      </Figure>
      <Figure id='click-position' title='Average click position per day'>
        <ChartView
          kind='line' labels={labels}
          series={[{ label: 'Average click position', values: days.map((d) => tenth(d.average_click_position)) }]}
        />
        <DataTable caption='Average click position per day' columns={['Day', 'Average click position']} rows={days.map((d) => [d.day, shown(d.average_click_position, position)])} />
      </Figure>
    </>
  )
}

/** How the assistant's conversations ended: resolved, handed off and why, how fast the team answered, rated. */
function ChatOutcomes ({ chat }: { chat: Figures['chat'] }) {
  const { resolution, handoff, team_answer: team, feedback } = chat
  const rated = feedback.up + feedback.down
  return (
    <>
      <Figure id='resolution' title='Resolved by the assistant'>
        <p class='big-number'>{resolution.chats === 0 ? '—' : formatPercent(resolution.rate)}</p>
        <p>{resolution.resolved} of {resolution.chats} conversations ended without a handoff or a reply rated down.</p>
      </Figure>
      <Figure id='handoff' title='Handoff rate'>
        <p class='big-number'>{formatPercent(handoff.rate)}</p>
        <p>{handoff.handed_off} of {handoff.chats} conversations were handed off to the team.</p>
        <table class='compact'>
          <caption class='sr-only'>Turns handed off by reason</caption>
          <thead><tr><th scope='col'>Reason</th><th scope='col'>Turns</th></tr></thead>
          <tbody>
            {(Object.keys(reasonLabels) as Array<keyof typeof reasonLabels>).map((r) => <tr key={r}><th scope='row'>{reasonLabels[r]}</th><td>{handoff.reasons[r]}</td></tr>)}
          </tbody>
        </table>
      </Figure>
      <Figure id='team-answer' title='Time to a team answer'>
        <p class='big-number'>{team.median_seconds === null ? '—' : formatDuration(team.median_seconds)}</p>
        <p>{team.handoffs === 0 ? 'Nothing was handed off in this period.' : `The median wait of ${team.answered} of ${team.handoffs} handed-off turns answered by the team.`}</p>
      </Figure>
      <Figure id='feedback' title='Customer feedback'>
        <p class='big-number'>{feedback.ratio === null ? '—' : formatPercent(feedback.ratio)}</p>
        <p>{rated === 0 ? 'No reply was rated in this period.' : `Of ${rated} replies rated by customers, ${feedback.up} helped and ${feedback.down} did not.`}</p>
      </Figure>
    </>
  )
}

/** What the assistant could not answer, grouped, with a link to the latest conversation of each. */
function Unanswered ({ projectId, groups }: { projectId: string, groups: Figures['chat']['unanswered'] }) {
  return (
    <Figure id='unanswered' title='Unanswered questions'>
      {groups.length === 0
        ? <p>No question was handed off for lack of an answer in this period.</p>
        : (
          <>
            <p class='hint'>Handed off because no help page, FAQ or item answered them; questions in nearly the same words are counted together. What your help pages could say next.</p>
            <table class='compact'>
              <thead><tr><th scope='col'>Question (latest wording)</th><th scope='col'>Times</th><th scope='col'>Last asked</th></tr></thead>
              <tbody>
                {groups.map((g) => (
                  <tr key={g.chat_id}>
                    <th scope='row'><a href={`/projects/${encodeURIComponent(projectId)}/chats/${encodeURIComponent(g.chat_id)}`}>{g.question}</a></th>
                    <td>{g.count}</td>
                    <td>{formatDate(g.last_asked_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
          )}
    </Figure>
  )
}

/** The help pages, FAQs and items the assistant's replies cited most. */
function TopCited ({ cited }: { cited: Figures['chat']['top_cited'] }) {
  const kinds = (['knowledge', 'faq', 'catalog'] as const).filter((k) => cited[k].length > 0)
  return (
    <Figure id='top-cited' title='Sources cited most'>
      {kinds.length === 0
        ? <p>No reply cited a source in this period.</p>
        : kinds.map((k) => (
          <table class='compact' key={k}>
            <caption>{sourceNames[k]}</caption>
            <thead><tr><th scope='col'>Source</th><th scope='col'>Replies</th></tr></thead>
            <tbody>{cited[k].map((c) => <tr key={c.reference}><th scope='row'>{c.title ?? c.reference}</th><td>{c.count}</td></tr>)}</tbody>
          </table>
        ))}
    </Figure>
  )
}

function Charts ({ projectId, figures }: { projectId: string, figures: Figures }) {
  const { chat, search } = figures
  const classes = classifications.map((c) => ({ name: classLabels[c], count: chat.classifications[c] ?? 0 }))
  return (
    <div class='figures'>
      <ChatOutcomes chat={chat} />
      <Unanswered projectId={projectId} groups={chat.unanswered} />
      <TopCited cited={chat.top_cited} />
      <Figure id='searches-per-day' title='Searches per day'>
        <ChartView
          kind='line' labels={search.searches_per_day.map((d) => d.day)}
          series={[{ label: 'Searches', values: search.searches_per_day.map((d) => d.searches) }, { label: 'Autocompletes', values: search.searches_per_day.map((d) => d.autocompletes) }]}
        />
        <DataTable caption='Searches per day' columns={['Day', 'Searches', 'Autocompletes']} rows={search.searches_per_day.map((d) => [d.day, d.searches, d.autocompletes])} />
      </Figure>
      <SearchOutcomes days={search.searches_per_day} />
      <Figure id='chats-per-day' title='Conversations per day'>
        <ChartView
          kind='line' labels={chat.chats_per_day.map((d) => d.day)}
          series={[{ label: 'Conversations', values: chat.chats_per_day.map((d) => d.chats) }, { label: 'Messages', values: chat.chats_per_day.map((d) => d.messages) }]}
        />
        <DataTable caption='Conversations per day' columns={['Day', 'Conversations', 'Messages']} rows={chat.chats_per_day.map((d) => [d.day, d.chats, d.messages])} />
      </Figure>
      <QueryChart id='top-queries' title='Top queries' rows={search.top_queries} empty='No searches in this period.' />
      <QueryChart id='no-results' title='Queries with no results' rows={search.no_result_queries} empty='Every search found something.' />
      <Figure id='classifications' title='Messages by classification'>
        <ChartView kind='bar' labels={classes.map((c) => c.name)} series={[{ label: 'Messages', values: classes.map((c) => c.count) }]} />
        <DataTable caption='Messages by classification' columns={['Classification', 'Messages']} rows={classes.map((c) => [c.name, c.count])} />
      </Figure>
    </div>
  )
}

/** The figures of each day as a CSV file, made in the browser from what the page shows. */
function download (figures: Figures, days: number) {
  const url = URL.createObjectURL(new Blob([analyticsCsv(figures)], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = `analytics-${days}-days-${new Date().toISOString().slice(0, 10)}.csv`
  link.click()
  // The download has started from the link's click; the file's URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

function Body () {
  const project = useProject()
  const [days, setDays] = useState(30)
  const figures = useLoad(() => getAnalytics(project.id, days), [project.id, days])
  return (
    <>
      <div class='inline-form'>
        <label for='days'>Period</label>
        <select id='days' value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))}>
          <option value='7'>Last 7 days</option>
          <option value='30'>Last 30 days</option>
          <option value='90'>Last 90 days</option>
          <option value='365'>Last 365 days</option>
        </select>
        {figures.data !== undefined && <button type='button' onClick={() => download(figures.data!, days)}>Download CSV</button>}
      </div>
      <p class='hint'>Test conversations (from the playground) are left out.</p>
      <ErrorAlert message={figures.error} />
      {figures.data === undefined ? figures.loading && <Loading what='analytics' /> : <Charts projectId={project.id} figures={figures.data} />}
    </>
  )
}

export function Analytics ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Analytics'><Body /></ProjectFrame>
}
