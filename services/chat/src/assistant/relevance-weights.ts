/**
 * The relevance model's numbers (decision 17): a logistic regression per kind of evidence, over the
 * features of evidence.ts, giving the chance that a piece of evidence answers the message. Fitted
 * offline on the development halves of the evaluation sets (`eval/fit.ts`, from the features `EVAL_FEATURES` writes; see eval/run.ts) and
 * committed as numbers; the held-out halves were not used. `THRESHOLD` is the one cut on that scale,
 * the one with the best F1 over every development candidate: evidence under it is not used, and
 * "nothing matches" is said only when no item clears it.
 */
export const WEIGHTS = {
  item: { bias: -3.15, semantic: 1.86, keyword: -0.9, coverage: 3.83, head: 0.26 },
  passage: { bias: -5.74, score: 3.96, coverage: 2.8, sentence: 0.97 },
  faq: { bias: -5.32, score: 4.78, coverage: -0.01, question: 4.16 }
} as const

export const THRESHOLD = 0.25
