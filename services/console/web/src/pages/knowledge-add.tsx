import { crawl, uploadFiles } from '../api/knowledge.js'
import { ErrorAlert, Status } from '../components/status.js'
import { useAction } from '../hooks.js'

interface Props {
  projectId: string
  /** A task was started: the page follows it. */
  onTask: (taskId: string) => void
}

/** Help files (Markdown, HTML, text, PDF) uploaded as one multipart request. */
export function UploadFiles ({ projectId, onTask }: Props) {
  const action = useAction()
  return (
    <section aria-labelledby='upload' class='card'>
      <h2 id='upload'>Upload files</h2>
      <form
        class='stack' onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const files = (form.elements.namedItem('files') as HTMLInputElement).files
          const url = String(new FormData(form).get('url') ?? '').trim()
          if (files === null || files.length === 0) return
          action.run(() => uploadFiles(projectId, [...files], url), `${files.length} file(s) uploaded; they are being indexed.`).then((r) => {
            if (r === undefined) return
            form.reset()
            onTask(r.task_id)
          })
        }}
      >
        <label for='knowledge-files'>Files (.md, .txt, .html or .pdf, up to 20)</label>
        <input id='knowledge-files' name='files' type='file' multiple required accept='.md,.markdown,.txt,.html,.htm,.pdf' />
        <label for='knowledge-files-url'>Where readers find them (optional URL)</label>
        <input id='knowledge-files-url' name='url' type='url' placeholder='https://' />
        <div><button type='submit' class='primary' disabled={action.pending}>Upload</button></div>
      </form>
      <ErrorAlert message={action.error} />
      <Status>{action.pending ? 'Uploading…' : action.status}</Status>
    </section>
  )
}

/** A website crawled from a start page, on its own origin. */
export function CrawlSite ({ projectId, onTask }: Props) {
  const action = useAction()
  return (
    <section aria-labelledby='crawl' class='card'>
      <h2 id='crawl'>Add a website</h2>
      <form
        class='stack' onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const data = new FormData(form)
          const url = String(data.get('url')).trim()
          const max = Number(data.get('max_pages'))
          action.run(() => crawl(projectId, url, max > 0 ? max : undefined), `Crawl of ${url} started.`).then((r) => {
            if (r === undefined) return
            form.reset()
            onTask(r.task_id)
          })
        }}
      >
        <label for='crawl-url'>Start page URL</label>
        <input id='crawl-url' name='url' type='url' required placeholder='https://' aria-describedby='crawl-hint' />
        <p id='crawl-hint' class='hint'>The crawl stays on this site, obeys robots.txt and follows its sitemaps. Crawling it again replaces its pages.</p>
        <label for='crawl-max'>Pages at most</label>
        <input id='crawl-max' name='max_pages' type='number' min={1} max={5000} defaultValue='200' inputMode='numeric' />
        <div><button type='submit' class='primary' disabled={action.pending}>Crawl</button></div>
      </form>
      <ErrorAlert message={action.error} />
      <Status>{action.status}</Status>
    </section>
  )
}
