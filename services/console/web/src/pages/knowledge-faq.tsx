import { faqId, saveFaq } from '../api/knowledge.js'
import { ErrorAlert, Status } from '../components/status.js'
import { useAction } from '../hooks.js'

/** A stored pair as the form shows it. */
export interface FaqDraft {
  id: string
  question: string
  answer: string
  url: string | null
}

interface Props {
  projectId: string
  /** The pair being edited; a new one when undefined. */
  editing: FaqDraft | undefined
  onSaved: () => void
  onCancel: () => void
}

/** Adds a question-and-answer pair, or replaces one (a pair saved with the id of a stored one replaces it). */
export function FaqForm ({ projectId, editing, onSaved, onCancel }: Props) {
  const action = useAction()
  return (
    <section aria-labelledby='faq' class='card'>
      <h2 id='faq'>{editing === undefined ? 'Add a question and answer' : 'Edit a question and answer'}</h2>
      <form
        class='stack' key={editing?.id ?? 'new'} onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const data = new FormData(form)
          const question = String(data.get('question')).trim()
          const answer = String(data.get('answer')).trim()
          const url = String(data.get('url')).trim()
          const id = editing?.id ?? faqId(question)
          action.run(() => saveFaq(projectId, { id, question, answer, ...(url === '' ? {} : { url }) }), editing === undefined ? 'Question added.' : 'Question saved.').then((r) => {
            if (r === undefined) return
            form.reset()
            onSaved()
          })
        }}
      >
        <label for='faq-question'>Question</label>
        <input id='faq-question' name='question' required maxLength={1000} defaultValue={editing?.question ?? ''} />
        <label for='faq-answer'>Answer</label>
        <textarea id='faq-answer' name='answer' required rows={5} maxLength={20000} defaultValue={editing?.answer ?? ''} />
        <label for='faq-url'>Link for readers (optional URL)</label>
        <input id='faq-url' name='url' type='url' placeholder='https://' defaultValue={editing?.url ?? ''} />
        <div class='buttons'>
          <button type='submit' class='primary' disabled={action.pending}>{editing === undefined ? 'Add question' : 'Save question'}</button>
          {editing !== undefined && <button type='button' onClick={onCancel}>Cancel editing</button>}
        </div>
      </form>
      <ErrorAlert message={action.error} />
      <Status>{action.status}</Status>
    </section>
  )
}
