/**
 * The relevance model's numbers (decision 17): a logistic regression per kind of evidence, over the
 * features of evidence.ts, giving the chance that a piece of evidence answers the message. Fitted
 * offline on the development halves of the evaluation sets (`eval/fit.ts`, from the features `EVAL_FEATURES` writes; see eval/run.ts) and
 * committed as numbers; the held-out halves were not used. `THRESHOLD` is the one cut on that scale,
 * chosen on the same data so that the best evidence of an answerable message clears it and none of an
 * unanswerable one does (best balanced accuracy): evidence under it is not used, and "nothing
 * matches" is said only when no item clears it. Weights of 0 are features the fit found no use for.
 * `sentence` is a ranking of the sentences of the pages that answer (sentences.ts), fitted listwise: a
 * score, not a chance, and no threshold.
 */
export const WEIGHTS = {
  item: { bias: -3.15, semantic: 1.55, keyword: 0, coverage: 3.78, head: 0 },
  passage: { bias: -6.11, score: 1.79, semantic: 0.17, standout: 1.31, agreement: 0.23, coverage: 2.47, sentence: 0.51, heading: 0.5, closest: 3.18 },
  faq: { bias: -7.25, score: 3.44, semantic: 3.71, coverage: 0.99, question: 4.67 },
  sentence: { bias: 0, words: 4.03, heading: 6.66, proximity: 0, cue: 2.54, meaning: 3.55, standout: 2.48, rare: 2, opening: 0, passage: 3.48 }
} as const

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))
/** The weighted sum of the features: a ranking score (the sentence model's), or the log-odds of the others. */
export function scoreOf<F extends object> (weights: { readonly bias: number } & { readonly [K in keyof F]: number }, features: F): number {
  let z = weights.bias
  for (const key of Object.keys(features) as Array<keyof F>) z += weights[key] * (features[key] as number)
  return z
}
/** The model's chance that evidence with these features answers. */
export const chanceOf: typeof scoreOf = (weights, features) => sigmoid(scoreOf(weights, features))
/** The chance to three decimals: what the team's transcript shows and the threshold cuts. */
export const relevanceOf: typeof chanceOf = (weights, features) => Math.round(chanceOf(weights, features) * 1000) / 1000

export const THRESHOLD = 0.11
