/**
 * Turns what someone typed into an FTS5 MATCH expression that can never be a syntax error and never
 * carries an operator of theirs: the text is cut into words (runs of letters, digits and marks, as
 * the unicode61 tokenizer sees them), each word is quoted (a quoted word holds no quote, so nothing
 * escapes it) and the words are joined with OR. `NEAR(`, `"`, `*`, `-`, `^`, `:` and column filters
 * are punctuation and disappear; `OR`, `AND`, `NOT` and `NEAR` typed as words become plain words.
 *
 * OR rather than AND: questions are written in full sentences ("how do I get paid for a shift?") and
 * an article rarely holds every word. bm25 already ranks an article that holds more of the words,
 * and rarer ones, higher. Common words are dropped so they do not decide the ranking; a query made
 * only of common words keeps them.
 */

export const MAX_TERMS = 16;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its me my ' +
    'no not of on or our so than that the their them then there these they this to too us was we were what when where which ' +
    'who why will with would you your yours am any all also about after again before being both each few he her here him his ' +
    'just more most nor off once only other out over own same she should some such under until up very while whom ' +
    // Fillers of questions ("why can't I … yet?"): rare in the articles, so bm25 would let them decide.
    'yet still already cannot t s d ll re ve m please thanks thank hi hello hey able anyone anything something someone ' +
    'ever even really much many lot might must shall may'
  ).split(' '),
);

/** The words of a query, lower-cased, first occurrence first, at most MAX_TERMS, common words left out when others remain. */
export function queryTerms(query: string): string[] {
  const words =
    query
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  const unique = [...new Set(words)].filter((w) => w.length <= 64);
  const meaningful = unique.filter((w) => !STOP_WORDS.has(w));
  return (meaningful.length ? meaningful : unique).slice(0, MAX_TERMS);
}

/** The MATCH expression for the terms (null when there is nothing to search for). */
export function matchExpression(terms: string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '')}"`).join(' OR ');
}
