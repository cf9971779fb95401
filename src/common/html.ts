/** What the service's HTML pages (the interview room, shared reports) share: escaping and times in words. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML that shows it as text: in element content and in quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A time as UTC in plain words ("22 November 2026, 17:56 UTC"), in a <time> element that carries it exactly. */
export function timeElement(date: Date): string {
  const text = `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${date.toISOString().slice(11, 16)} UTC`;
  return `<time datetime="${date.toISOString()}">${text}</time>`;
}
