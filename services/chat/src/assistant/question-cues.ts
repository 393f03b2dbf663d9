/**
 * What shape of sentence answers a question, by its opening words (English): "how do I" is answered
 * by an instruction, "can I" and "do I have to" by what can or must be done, "how many" by a number,
 * "when" by a condition or a moment, "why" by a reason, "what is X" by a sentence that defines X. The
 * shape is one feature of the sentence model (sentences.ts), beside the words and the meaning; none is
 * required, as a source may answer in other words.
 */
import { ABILITY, ASKS_ABILITY, ASKS_HOW, ASKS_NUMBER, ASKS_WHAT, ASKS_WHEN, ASKS_WHY, CONDITION, DEFINED_WITHIN, DEFINES, INSTRUCTION, LIST_MARKER, NOT_A_DEFINITION, NUMBER, REASON } from './lexicon.js'

export type AnswerCue = (sentence: string, wanted: string[], sequence: string[]) => boolean

/** A sentence that defines what the question names: a definition's words, and the question's words among its first. */
function defines (sentence: string, wanted: string[], sequence: string[]): boolean {
  if (!DEFINES.test(sentence)) return false
  const opening = sequence.slice(0, DEFINED_WITHIN)
  return wanted.some((w) => opening.includes(w)) && opening.filter((w) => wanted.includes(w)).length >= Math.min(2, wanted.length)
}

/** A step of a procedure (list markers and opening quotes skipped: "1. Click Save."). */
const instruction = (s: string) => INSTRUCTION.test(s.replace(LIST_MARKER, ''))

/** The shape of sentence that answers `message`, or undefined when its opening asks for none in particular. */
export function answerCue (message: string): AnswerCue | undefined {
  const text = message.trim().toLowerCase()
  if (asksHow(text)) return instruction
  if (ASKS_ABILITY.test(text)) return (s) => ABILITY.test(s)
  if (ASKS_NUMBER.test(text)) return (s) => NUMBER.test(s)
  if (ASKS_WHEN.test(text)) return (s) => CONDITION.test(s)
  if (ASKS_WHY.test(text)) return (s) => REASON.test(s)
  if (ASKS_WHAT.test(text) && !NOT_A_DEFINITION.test(text)) return defines
  return undefined
}

/** "How do I …", "how to …", "what are the steps to …": the answer is a procedure, its steps in order. */
export function asksHow (message: string): boolean {
  return ASKS_HOW.test(message.trim())
}
