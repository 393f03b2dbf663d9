import { useState } from 'preact/hooks'
import { deleteDocument, listDocuments } from '../api/knowledge.js'
import type { KnowledgeSummary } from '../api/types.js'
import { ConfirmButton } from '../components/confirm-button.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { formatDate } from '../format.js'
import { useAction, useLoad } from '../hooks.js'

const PAGE = 20
const kinds = [['', 'All kinds'], ['page', 'Pages'], ['file', 'Files'], ['web', 'Web pages'], ['faq', 'Questions and answers']] as const

interface Props {
  projectId: string
  /** Changes when documents did elsewhere on the page: the list is read again. */
  version: number
  onEdit: (doc: KnowledgeSummary) => void
}

export function KnowledgeDocuments ({ projectId, version, onEdit }: Props) {
  const [kind, setKind] = useState('')
  const [offset, setOffset] = useState(0)
  const list = useLoad(() => listDocuments(projectId, { kind: kind === '' ? undefined : kind, limit: PAGE, offset }), [projectId, kind, offset, version])
  const action = useAction()
  const total = list.data?.total ?? 0

  return (
    <section aria-labelledby='documents' class='card'>
      <h2 id='documents'>Documents</h2>
      <div class='inline-form'>
        <label for='knowledge-kind'>Show</label>
        <select id='knowledge-kind' value={kind} onChange={(e) => { setKind(e.currentTarget.value); setOffset(0) }}>
          {kinds.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </select>
      </div>
      <ErrorAlert message={action.error ?? list.error} />
      <Status>{action.status ?? (list.data !== undefined && `${total} document${total === 1 ? '' : 's'}.`)}</Status>
      {list.data === undefined
        ? list.loading && <Loading what='documents' />
        : list.data.results.length > 0 && (
          <table class='responsive'>
            <thead><tr><th scope='col'>Title</th><th scope='col'>Kind</th><th scope='col'>Chunks</th><th scope='col'>Updated</th><th scope='col'><span class='sr-only'>Actions</span></th></tr></thead>
            <tbody>
              {list.data.results.map((d) => (
                <tr key={d.id}>
                  <td data-label='Title'>{d.url === null ? d.title : <a href={d.url} rel='noopener noreferrer' target='_blank'>{d.title}</a>}</td>
                  <td data-label='Kind'>{d.kind}</td>
                  <td data-label='Chunks'>{d.chunks}</td>
                  <td data-label='Updated'>{formatDate(d.updated_at)}</td>
                  <td data-label='Actions' class='actions'>
                    {d.kind === 'faq' && <button type='button' aria-label={`Edit ${d.title}`} onClick={() => onEdit(d)}>Edit</button>}
                    <ConfirmButton
                      label='Delete' target={d.title} question={`Delete “${d.title}”?`}
                      onConfirm={() => action.run(() => deleteDocument(projectId, d.id), `“${d.title}” deleted.`).then(() => list.reload())}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      <nav aria-label='Document pages' class='pager'>
        <button type='button' disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</button>
        <button type='button' disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>Next</button>
      </nav>
    </section>
  )
}
