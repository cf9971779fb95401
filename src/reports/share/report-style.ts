import { createHash } from 'node:crypto';
import { PAGE_BASE_STYLE } from '../../common/page-style';

/**
 * The shared report's one style sheet, inlined in the page: the page loads nothing, so it works offline,
 * saved as a file, and under a CSP that names this exact text by its hash. It starts with the
 * house palette and base rules the room shares (common/page-style.ts). Keep it ASCII: the hash is of
 * its UTF-8 bytes, and anything else only invites an encoding mismatch.
 *
 * Charts are SVG, never CSS backgrounds: printers drop backgrounds by default, SVG fills they keep.
 */
export const REPORT_STYLE = `${PAGE_BASE_STYLE}
:root {
  --negative: #d55e00;
  --neutral: #8c96a3;
  --positive: #0072b2;
}
body { font-size: 16px; line-height: 1.55; overflow-wrap: anywhere; }
.report { max-width: 52rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
.card {
  background: var(--paper);
  border: 1px solid var(--line);
  border-radius: 12px;
  padding: 1.5rem 1.75rem;
  margin: 0 0 1.5rem;
}
h1, h2, h3, h4, h5 { line-height: 1.25; margin: 0 0 .75rem; }
h1 { font-size: 1.8rem; }
h2 { font-size: 1.35rem; }
h3 { font-size: 1.15rem; }
h4 {
  margin-top: 1.75rem;
  font-size: .8rem;
  letter-spacing: .06em;
  text-transform: uppercase;
  color: var(--muted);
}
p { margin: 0 0 .75rem; }
.subhead { margin-top: 1.75rem; }
.eyebrow { margin: 0 0 .3rem; font-size: .9rem; font-weight: 600; color: var(--accent); }
.meta { margin: 0; color: var(--muted); }
.meta p { margin: .25rem 0 0; }
.note { font-size: .9rem; color: var(--muted); }
.empty {
  margin: 1rem 0 0;
  padding: .75rem 1rem;
  border: 1px dashed var(--field);
  border-radius: 8px;
  color: var(--muted);
}
.stats {
  display: grid;
  grid-template-columns: repeat(3, minmax(0, 1fr));
  gap: 1.25rem 1.5rem;
  margin: 0 0 1.75rem;
}
.stat { padding-top: .5rem; border-top: 3px solid var(--accent); }
.stat dt { font-size: .85rem; color: var(--muted); }
.stat dd { margin: 0; font-size: 1.6rem; font-weight: 650; font-variant-numeric: tabular-nums; line-height: 1.3; }
.stat .hint { display: block; font-size: .8rem; font-weight: 400; line-height: 1.35; color: var(--muted); }
.bars { margin: 0; padding: 0; list-style: none; }
.bars > li { margin: 0 0 1rem; }
.bar-head {
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  justify-content: space-between;
  gap: .1rem 1rem;
  margin: 0 0 .3rem;
}
.bar-head .label { font-weight: 600; }
.count { font-variant-numeric: tabular-nums; }
.bar-head .count { white-space: nowrap; }
.bar-note { margin: .3rem 0 0; font-size: .85rem; color: var(--muted); }
svg.bar { display: block; width: 100%; height: .85rem; border: 1px solid var(--field); }
.breakdown { display: grid; grid-template-columns: repeat(auto-fill, minmax(8rem, 1fr)); gap: .5rem 1.5rem; margin: 0; }
.breakdown dt { font-size: .85rem; color: var(--muted); }
.breakdown dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; margin: .45rem 0 .25rem; padding: 0; list-style: none; }
.key { margin-right: .3rem; }
.key--negative { color: var(--negative); }
.key--neutral { color: var(--neutral); }
.key--positive { color: var(--positive); }
.phrases { display: flex; flex-wrap: wrap; gap: .5rem; margin: 0; padding: 0; list-style: none; }
.phrases li { padding: .1rem .75rem; border: 1px solid var(--field); border-radius: 999px; }
.phrases .count { margin-left: .4rem; color: var(--muted); }
.themes { margin: 0; padding: 0; list-style: none; }
.theme { margin: 0 0 1.75rem; }
.theme:last-child { margin-bottom: 0; }
.theme .label { margin: 0; font-size: 1rem; font-weight: 600; letter-spacing: 0; text-transform: none; color: var(--ink); }
.theme__description { margin: .45rem 0 0; color: var(--muted); }
blockquote.quote { margin: .6rem 0 0; padding: .05rem 0 .05rem 1rem; border-left: 3px solid var(--field); }
blockquote.quote p { margin: 0; white-space: pre-wrap; }
blockquote.quote p.translation { margin-top: .25rem; color: var(--muted); font-style: italic; }
.translation__label { font-style: normal; font-weight: 600; }
.question-title { margin-bottom: .35rem; }
.coverage { margin: 0 0 1rem; }
.tag {
  margin-left: .4rem;
  padding: 0 .5rem;
  border: 1px solid var(--accent);
  border-radius: 999px;
  font-size: .75rem;
  font-weight: 600;
  color: var(--accent);
  white-space: nowrap;
}
.answers { margin: .6rem 0 0; }
.answers summary { font-size: .9rem; font-weight: 600; color: var(--accent); cursor: pointer; }
.answer-list { margin: .5rem 0 0; padding-left: 1.25rem; }
.answer-list li { margin: 0 0 .4rem; white-space: pre-wrap; }
.toc { margin: 0 0 1.5rem; }
.toc summary { font-weight: 600; color: var(--accent); cursor: pointer; }
.toc ol { margin: .5rem 0 0; padding-left: 1.75rem; }
.toc a { color: var(--accent); }
.method { margin: 0; padding-left: 1.25rem; }
.method li { margin: 0 0 .5rem; }
@media (max-width: 40rem) {
  body { font-size: 15px; }
  .report { padding: 1rem .75rem 2rem; }
  .card { padding: 1.1rem 1rem; border-radius: 10px; }
  h1 { font-size: 1.45rem; }
  .stats { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 1rem; }
  .stat dd { font-size: 1.35rem; }
}
@media print {
  @page { margin: 16mm 14mm; }
  body { background: none; font-size: 10.5pt; }
  .report { max-width: none; padding: 0; }
  .card { margin: 0 0 8mm; padding: 0; border: 0; border-radius: 0; }
  .question { padding-top: 4mm; border-top: 1px solid var(--field); break-inside: avoid; }
  .toc, .answers { display: none; }
  h1, h2, h3, h4, h5, .bar-head, .eyebrow { break-after: avoid; }
  .keep, .stat, .bars > li, .sentiment, .theme, blockquote { break-inside: avoid; }
}
`;

/**
 * The Content-Security-Policy of the shared report and its 404 page: nothing loads and nothing runs.
 * The one style block is allowed by its hash, so an injected <style> (or a style attribute) would not
 * apply even if escaping ever failed; img-src data: only lets the empty `data:,` icon through, which
 * keeps browsers from asking the service for /favicon.ico.
 */
export const REPORT_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(REPORT_STYLE, 'utf8').digest('base64')}'`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
