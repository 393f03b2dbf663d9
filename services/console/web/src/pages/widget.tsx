import { useEffect, useRef, useState } from 'preact/hooks'
import { createCredential, listCredentials, readWidgetSettings, revokeCredential, rotateIdentitySecret } from '../api/projects.js'
import type { IssuedCredential } from '../api/types.js'
import { ConfirmButton } from '../components/confirm-button.js'
import { CopyButton } from '../components/copy-button.js'
import { ProjectFrame, useProject } from '../components/project-frame.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { formatDate } from '../format.js'
import { useAction, useLoad } from '../hooks.js'
import { Revealed } from './credentials.js'

/** What the origins field holds: one origin per line, or separated by commas or spaces. */
const originsOf = (text: string) => text.split(/[\s,]+/).filter((o) => o !== '')

/** The publishable widget keys (decision 18): created for the shop's origins, listed with them, revoked. */
function WidgetKeys ({ projectId, onCreated }: { projectId: string, onCreated: (key: string) => void }) {
  const list = useLoad(() => listCredentials(projectId, 'widget'), [projectId])
  const action = useAction()
  const [created, setCreated] = useState<IssuedCredential | undefined>()
  const active = list.data?.filter((c) => c.revoked_at === null) ?? []
  const revoked = list.data?.filter((c) => c.revoked_at !== null) ?? []

  return (
    <section aria-labelledby='widget-keys' class='card'>
      <h2 id='widget-keys'>Widget keys</h2>
      <p class='hint'>
        A widget key (<code>csk_pub_…</code>) goes in the shop's own pages: it is accepted only from the origins named here,
        only for sending messages, reading the browser's own conversations and rating replies.
      </p>
      <form
        class='inline-form' onSubmit={(e) => {
          e.preventDefault()
          const form = e.currentTarget
          const origins = originsOf(String(new FormData(form).get('origins')))
          action.run(() => createCredential(projectId, 'widget', origins), 'New widget key created.').then((c) => {
            if (c === undefined) return
            setCreated(c)
            onCreated(c.key)
            form.reset()
            list.reload()
          })
        }}
      >
        <label for='widget-origins'>Allowed origins</label>
        <textarea
          id='widget-origins' name='origins' rows={2} required autocapitalize='none' spellcheck={false}
          placeholder='https://shop.example' aria-describedby='widget-origins-hint'
        />
        <button type='submit' class='primary' disabled={action.pending}>Create widget key</button>
      </form>
      <p id='widget-origins-hint' class='hint'>One per line, exactly as the browser names the page's origin: scheme, host, and port when not the default, no path.</p>
      <ErrorAlert message={action.error ?? list.error} />
      <Status>{action.status}</Status>
      {created !== undefined && <Revealed credential={created} noun='widget key' onDismiss={() => setCreated(undefined)} />}
      {list.data === undefined
        ? list.loading && <Loading what='widget keys' />
        : active.length === 0
          ? <p>No active widget keys.</p>
          : (
            <table class='responsive'>
              <caption class='sr-only'>Active widget keys</caption>
              <thead><tr><th scope='col'>Hint</th><th scope='col'>Origins</th><th scope='col'>User</th><th scope='col'>Created</th><th scope='col'>Last used</th><th scope='col'><span class='sr-only'>Actions</span></th></tr></thead>
              <tbody>
                {active.map((c) => (
                  <tr key={c.id}>
                    <td data-label='Hint'><code>{c.hint}</code></td>
                    <td data-label='Origins'><ul class='plain'>{(c.origins ?? []).map((o) => <li key={o}><code>{o}</code></li>)}</ul></td>
                    <td data-label='User'>{c.username}</td>
                    <td data-label='Created'>{formatDate(c.created_at)}</td>
                    <td data-label='Last used'>{c.last_used_at === null ? 'Never' : formatDate(c.last_used_at)}</td>
                    <td data-label='Actions'>
                      <ConfirmButton
                        label='Revoke' target={`widget key ${c.hint}`} question={`Revoke ${c.hint}? The widget stops working on the shop's pages at once.`}
                        onConfirm={() => action.run(() => revokeCredential(projectId, c.id), `Widget key ${c.hint} revoked.`).then(() => list.reload())}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            )}
      {revoked.length > 0 && (
        <details>
          <summary>Revoked widget keys ({revoked.length})</summary>
          <ul class='plain'>
            {revoked.map((c) => <li key={c.id}><code>{c.hint}</code> of {c.username}, revoked {formatDate(c.revoked_at)}</li>)}
          </ul>
        </details>
      )}
    </section>
  )
}

/** The identity secret under which the shop's server signs its logged-in customer's id. */
function IdentityVerification ({ projectId }: { projectId: string }) {
  const settings = useLoad(() => readWidgetSettings(projectId), [projectId])
  const action = useAction()
  const secret = settings.data?.identity_secret
  return (
    <section aria-labelledby='identity-verification' class='card'>
      <h2 id='identity-verification'>Identity verification</h2>
      <p class='hint'>
        To tie the conversation to the shop's logged-in customer, the shop's server sends the widget the customer's id
        and its HMAC-SHA256 (hex) under this secret; the widget passes them as <code>X-Consumer-Id</code> and <code>X-Consumer-Hmac</code>.
        Keep the secret on the server, never in a page.
      </p>
      <ErrorAlert message={action.error ?? settings.error} />
      <Status>{action.status}</Status>
      {secret === undefined
        ? settings.loading && <Loading what='the identity secret' />
        : (
          <div class='secret-row'>
            <code class='secret' tabIndex={0} aria-label='Identity secret'>{secret}</code>
            <CopyButton text={secret} what='identity secret' />
            <ConfirmButton
              label='Rotate' target='identity secret' question='Rotate the identity secret? Customer ids signed with the old one are refused from then on.'
              onConfirm={() => action.run(() => rotateIdentitySecret(projectId), 'Identity secret rotated.').then(() => settings.reload())}
            />
          </div>
          )}
    </section>
  )
}

interface Theme { color: string, position: 'right' | 'left', lang: 'en' | 'de' | 'fr' | 'es', greeting: string }

const LANGUAGES = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español' } as const

/** The <script> tag a shop pastes into its pages, with the theme chosen here. */
export function snippetOf (loaderUrl: string, key: string, theme: Theme): string {
  const attr = (name: string, value: string) => ` data-${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`
  return `<script src="${loaderUrl}"${attr('key', key)}${attr('color', theme.color)}${theme.position === 'left' ? attr('position', 'left') : ''}` +
    `${attr('lang', theme.lang)}${theme.greeting.trim() === '' ? '' : attr('greeting', theme.greeting.trim())} async></script>`
}

/** The widget's own panel (the chat service's panel.js, built into the console), open in place with a sample exchange. */
function Preview ({ theme }: { theme: Theme }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    let gone = false
    import('@chatsearch/chat-widget/panel').then(() => {
      if (gone || box.current === null) return
      const panel = document.createElement('chatsearch-chat')
      panel.setup({ key: 'csk_pub_preview', api: '', panelUrl: '', color: theme.color, position: theme.position, lang: theme.lang, ...(theme.greeting.trim() === '' ? {} : { greeting: theme.greeting.trim() }) })
      box.current.replaceChildren(panel)
      panel.preview({
        question: 'How long does shipping take?',
        answer: 'Standard delivery takes 3 to 5 working days.',
        source: { title: 'How long does shipping take?', url: 'https://shop.example/help/faq#shipping' }
      })
    }, () => {})
    return () => { gone = true }
  }, [theme.color, theme.position, theme.lang, theme.greeting])
  return <div ref={box} class='widget-preview' aria-label='Preview of the widget' role='region' />
}

/** The snippet to paste, for the key just created (a key is shown once) or any other, and a live preview of the theme. */
function Snippet ({ projectId, lastKey }: { projectId: string, lastKey: string | undefined }) {
  const settings = useLoad(() => readWidgetSettings(projectId), [projectId])
  const [theme, setTheme] = useState<Theme>({ color: '#1f5fbf', position: 'right', lang: 'en', greeting: '' })
  const loaderUrl = settings.data === undefined ? undefined : new URL(settings.data.loader_url, window.location.href).href
  const snippet = loaderUrl === undefined ? '' : snippetOf(loaderUrl, lastKey ?? 'csk_pub_…', theme)
  const set = <K extends keyof Theme>(name: K) => (e: Event) => { setTheme({ ...theme, [name]: (e.currentTarget as HTMLInputElement).value }) }
  return (
    <section aria-labelledby='widget-snippet' class='card'>
      <h2 id='widget-snippet'>Snippet and preview</h2>
      <p class='hint'>
        Paste this tag into the shop's pages, before <code>&lt;/body&gt;</code>.
        {lastKey === undefined ? ' Put your widget key in data-key (it is shown only once, when created).' : ' It holds the widget key just created.'}
      </p>
      <div class='inline-form'>
        <label for='widget-color'>Colour</label>
        <input id='widget-color' type='color' value={theme.color} onInput={set('color')} />
        <label for='widget-position'>Position</label>
        <select id='widget-position' value={theme.position} onChange={set('position')}>
          <option value='right'>Bottom right</option>
          <option value='left'>Bottom left</option>
        </select>
        <label for='widget-lang'>Language</label>
        <select id='widget-lang' value={theme.lang} onChange={set('lang')}>
          {Object.entries(LANGUAGES).map(([code, name]) => <option key={code} value={code}>{name}</option>)}
        </select>
        <label for='widget-greeting'>Greeting</label>
        <input id='widget-greeting' type='text' maxLength={500} value={theme.greeting} placeholder='(the widget’s own)' onInput={set('greeting')} />
      </div>
      <ErrorAlert message={settings.error} />
      {loaderUrl === undefined
        ? settings.loading && <Loading what='the snippet' />
        : (
          <div class='secret-row'>
            <code class='snippet' tabIndex={0} aria-label='Widget snippet'>{snippet}</code>
            <CopyButton text={snippet} what='snippet' />
          </div>
          )}
      <Preview theme={theme} />
    </section>
  )
}

function Body () {
  const project = useProject()
  const [lastKey, setLastKey] = useState<string | undefined>()
  return (
    <>
      <WidgetKeys projectId={project.id} onCreated={setLastKey} />
      <Snippet projectId={project.id} lastKey={lastKey} />
      <IdentityVerification projectId={project.id} />
    </>
  )
}

export function Widget ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Widget'><Body /></ProjectFrame>
}
