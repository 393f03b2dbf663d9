import { useEffect, useRef, useState } from 'preact/hooks'

interface Props {
  /** The action's name, as the button shows it: "Revoke", "Delete". */
  label: string
  /** The question asked before doing it. */
  question: string
  /** Names what is acted on, for screen readers ("Revoke key abc…"). */
  target: string
  onConfirm: () => Promise<unknown> | undefined
  disabled?: boolean
}

/** A destructive action asked twice: the button turns into a question with Yes and Cancel. */
export function ConfirmButton ({ label, question, target, onConfirm, disabled = false }: Props) {
  const [asking, setAsking] = useState(false)
  const yes = useRef<HTMLButtonElement>(null)
  const first = useRef<HTMLButtonElement>(null)
  const wasAsking = useRef(false)
  useEffect(() => {
    if (asking) yes.current?.focus()
    else if (wasAsking.current) first.current?.focus()
    wasAsking.current = asking
  }, [asking])

  if (!asking) {
    return <button type='button' ref={first} class='danger' disabled={disabled} aria-label={`${label} ${target}`} onClick={() => setAsking(true)}>{label}</button>
  }
  return (
    <span class='confirm' role='group' aria-label={question}>
      <span class='confirm-question'>{question}</span>
      <button
        type='button' ref={yes} class='danger' onClick={() => {
          setAsking(false)
          onConfirm()
        }}
      >Yes, {label.toLowerCase()}
      </button>
      <button type='button' onClick={() => setAsking(false)}>Cancel</button>
    </span>
  )
}
