/** A term as an FTS5 string literal: inside double quotes, a double quote is doubled. */
export const ftsString = (term: string) => `"${term.replaceAll('"', '""')}"`

/**
 * The keyword indexes' tokenizer: database.ts and knowledge-database.ts create the catalog's and the
 * knowledge's indexes with it, changes.ts tokenizes with it.
 */
export const FTS_TOKENIZER = 'unicode61 remove_diacritics 2'
