/** A term as an FTS5 string literal: inside double quotes, a double quote is doubled. */
export const ftsString = (term: string) => `"${term.replaceAll('"', '""')}"`

/** The keyword index's tokenizer (database.ts creates the index with it, changes.ts tokenizes with it). */
export const FTS_TOKENIZER = 'unicode61 remove_diacritics 2'
