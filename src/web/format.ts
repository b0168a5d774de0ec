/** How the pages write money, dates and shift times: one place, so every page says them alike. */

/** "$1,234.50", "€12.00": an amount in its currency (en-US grouping; the code when unknown). */
export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

let dateWords: Intl.DateTimeFormat | undefined;
/** "Thu 26 Nov": a wall-clock date (YYYY-MM-DD) in words, read as the date it names (no zone shift). */
export function formatDate(date: string): string {
  // One formatter for every call: a page of hundreds of dates (a copied week) made one each.
  dateWords ??= new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  return dateWords.format(new Date(`${date}T12:00:00Z`));
}

/** "09:00–17:00", with "(next day)" when the shift ends after midnight. */
export function shiftHours(shiftIn: string, shiftOut: string): string {
  return `${shiftIn}–${shiftOut}${shiftOut <= shiftIn ? ' (next day)' : ''}`;
}

/** An instant (ISO 8601) as the wall-clock time in a zone: "09:04". */
export function timeIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone }).format(new Date(iso));
}

/** An instant (ISO 8601) as the date and wall-clock time in a zone: "Thu 26 Nov, 09:04". */
export function dateTimeIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone,
  }).format(new Date(iso));
}
