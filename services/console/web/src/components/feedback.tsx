import type { Feedback } from '../api/types.js'
import { formatDate } from '../format.js'

/** Material Icons' thumb_up (Apache-2.0), drawn rather than an emoji, which needs a font the machine may not have. */
const THUMB = 'M1 21h4V9H1v12zm22-11c0-1.1-.9-2-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L14.17 1 7.59 7.59C7.22 7.95 7 8.45 7 9v10c0 1.1.9 2 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2z'

/** The customer's rating of a reply (POST /feedback): a thumb up or down, in words too, and what they wrote. */
export function FeedbackMark ({ feedback }: { feedback: Feedback }) {
  const up = feedback.rating === 'up'
  return (
    <p class={`feedback feedback-${feedback.rating}`}>
      <svg viewBox='0 0 24 24' width='16' height='16' aria-hidden='true'>
        <path d={THUMB} fill='currentColor' {...(up ? {} : { transform: 'rotate(180 12 12)' })} />
      </svg>{' '}
      <strong>{up ? 'Helpful' : 'Not helpful'}</strong>
      <span class='hint'> · the customer's rating, <time dateTime={feedback.rated_at}>{formatDate(feedback.rated_at)}</time></span>
      {feedback.comment !== undefined && <><br /><q class='feedback-comment'>{feedback.comment}</q></>}
    </p>
  )
}
