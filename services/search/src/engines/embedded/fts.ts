/** A term as an FTS5 string literal: inside double quotes, a double quote is doubled. */
export const ftsString = (term: string) => `"${term.replaceAll('"', '""')}"`
