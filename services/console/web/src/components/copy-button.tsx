import { useState } from 'preact/hooks'

/** Copies with the Clipboard API, or, where it is missing (plain http), by selecting a hidden text area. */
async function copy (text: string): Promise<boolean> {
  if (navigator.clipboard !== undefined && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text)
      return true
    } catch {
      // Refused (no permission): the old way may still work.
    }
  }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.className = 'offscreen'
  document.body.append(area)
  area.select()
  let done = false
  try {
    done = document.execCommand('copy')
  } catch {
    done = false
  }
  area.remove()
  return done
}

export function CopyButton ({ text, what }: { text: string, what: string }) {
  const [result, setResult] = useState<string>('')
  return (
    <span class='copy'>
      <button type='button' aria-label={`Copy ${what}`} onClick={() => { copy(text).then((ok) => setResult(ok ? 'Copied.' : 'Copying failed: select the text and copy it yourself.')) }}>Copy</button>
      <span role='status' aria-live='polite' class='copy-result'>{result}</span>
    </span>
  )
}
