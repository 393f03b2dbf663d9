/**
 * What shape of sentence answers a question, by its opening words (English): "how do I" is answered
 * by an instruction, "can I" and "do I have to" by what can or must be done, "how many" by a number,
 * "when" by a condition or a moment, "why" by a reason, "what is X" by a sentence that defines X. The
 * shape is one feature of the sentence model (sentences.ts), beside the words and the meaning; none is
 * required, as a source may answer in other words.
 */
export type AnswerCue = (sentence: string, wanted: string[], sequence: string[]) => boolean

const NUMBER = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|dozen|unlimited|no limit)\b/i
const CONDITION = /\b(?:when|whenever|once|after|before|until|unless|if|only|as soon as|within)\b/i
const REASON = /\b(?:because|since|so that|in order to|useful|helpful|helps?|allows?|lets?|ensures?)\b/i
/** "X - …", "X: …", "X is …", "X means …": the words of a definition. */
const DEFINES = /(?:^|\s)(?:[-–—:]|is|are|means?|refers? to|stands? for)\s/i

/** Of the sentence's first words: a definition names what it defines first. */
const DEFINED_WITHIN = 3

function defines (sentence: string, wanted: string[], sequence: string[]): boolean {
  if (!DEFINES.test(sentence)) return false
  const opening = sequence.slice(0, DEFINED_WITHIN)
  return wanted.some((w) => opening.includes(w)) && opening.filter((w) => wanted.includes(w)).length >= Math.min(2, wanted.length)
}

/**
 * A step of a procedure: "To reset it, hold …", an instruction opening with a verb ("Click Save",
 * "Remove the card"), or "you can/need to/should …" (not "you can't"). List markers and opening
 * quotes are skipped ("1. Click Save.").
 */
const INSTRUCTION = /^(?:to \w+[^.]*,|first|then|next,|finally|now,)|^(?:add|change|check|choose|click|close|connect|copy|create|delete|disable|download|edit|enable|enter|go|hold|install|keep|make|mark|move|open|plug|power (?:down|off|on|up)|press|remove|replace|restart|run|save|select|set|switch|tap|turn|type|uncheck|unplug|use|visit)\b|\byou (?:can(?!not|'t)|could|need to|must|should|will need to|have to)\b/i
const LIST_MARKER = /^\s*(?:\d+[.)]|[-*•]|["“'])\s*/
const instruction = (s: string) => INSTRUCTION.test(s.replace(LIST_MARKER, ''))
/** A yes or a no: what can or must be done, what is possible, required or optional. */
const ABILITY = /\b(?:you (?:can|cannot|can't|may|may not)|you (?:do not|don't|will not|won't) (?:need|have) to|can(?:not|'t)? (?:only )?be|(?:can|may) only|only once|must(?: not|n't)? \w+|(?:is|are)(?: not|n't)? (?:possible|required|optional|allowed|supported)|(?:isn't|aren't) (?:possible|required|optional|allowed|supported))\b/i
/** "can I …?", "do customers …?", "is it possible …?": a question whether something can or must be done. */
const ASKS_ABILITY = /^(?:(?:hi|hello|hey|ok|okay|so|and|but|please)\W+)*(?:(?:can|could|may|must|do|does|should) (?:i|we|one|it|they|this|that|a|an|the|my|our|customers?|users?|shoppers?|staff)|is it possible|is there a way|am i able)\b/

export function answerCue (message: string): AnswerCue | undefined {
  const text = message.trim().toLowerCase()
  if (asksHow(text)) return instruction
  if (ASKS_ABILITY.test(text)) return (s) => ABILITY.test(s)
  if (/^(?:how (?:many|much|long|often|big|large|old)|what(?:'s| is) the (?:max|min|limit|number))/.test(text)) return (s) => NUMBER.test(s)
  if (/^(?:when\b|at what point|until when|how soon)/.test(text)) return (s) => CONDITION.test(s)
  if (/^why\b/.test(text)) return (s) => REASON.test(s)
  if (/^(?:what(?:'s| is| are| does| do)\b|define\b|meaning of\b)/.test(text) && !/\b(?:can|should|how)\b/.test(text)) return defines
  return undefined
}

/** "How do I …", "how to …", "what are the steps to …": the answer is a procedure, its steps in order. */
const ASKS_HOW = /^(?:(?:hi|hello|hey|ok|okay|so|and|but|please)\W+)*(?:how (?:do|can|could|should|would|will) (?:i|we|you|one)|how to|how is|how are|what (?:are|is) the steps?|steps to|what do i (?:need to )?do)\b/i

export function asksHow (message: string): boolean {
  return ASKS_HOW.test(message.trim())
}
