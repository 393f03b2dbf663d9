import { stems } from '../assistant/words.js'

export interface AskedQuestion {
  content: string
  askedAt: string
  chatId: string
}

export interface QuestionGroup {
  question: string
  count: number
  last_asked_at: string
  chat_id: string
}

/** Two questions share a group when their word stems overlap this much (Jaccard: shared / all). */
const SAME_QUESTION = 0.5

function jaccard (a: Set<string>, b: Set<string>): number {
  let shared = 0
  for (const stem of a) if (b.has(stem)) shared++
  const all = a.size + b.size - shared
  return all === 0 ? 0 : shared / all
}

/**
 * The questions grouped by their words, most frequent group first (ties: the most recently asked):
 * "is there a student discount?" and "do you have student discounts" are one group, as their
 * subject words' stems are the same. Each question joins the first group, in order of the groups'
 * first question, whose stems it shares at least half of; a question with no subject word is a group
 * of its own only when its text is the same. The questions come newest first, so a group's question
 * and chat are its latest. Greedy and linear in questions × groups: the caller bounds the questions.
 * Words rather than the sentence encoder, because analytics reads hundreds of questions at once and
 * embedding each costs tens of milliseconds; the same stems are what the assistant matches by.
 */
export function groupQuestions (newestFirst: AskedQuestion[], max: number): QuestionGroup[] {
  const groups: Array<QuestionGroup & { stems: Set<string>, key: string }> = []
  for (const asked of newestFirst) {
    const own = new Set(stems(asked.content))
    const key = asked.content.trim().toLowerCase()
    const group = groups.find((g) => own.size === 0 || g.stems.size === 0 ? g.key === key : jaccard(g.stems, own) >= SAME_QUESTION)
    if (group !== undefined) group.count++
    else groups.push({ question: asked.content, count: 1, last_asked_at: asked.askedAt, chat_id: asked.chatId, stems: own, key })
  }
  return groups
    .map((g, order) => ({ g, order }))
    .sort((a, b) => b.g.count - a.g.count || a.order - b.order)
    .slice(0, max)
    .map(({ g }) => ({ question: g.question, count: g.count, last_asked_at: g.last_asked_at, chat_id: g.chat_id }))
}
