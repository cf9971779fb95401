import { escapeHtml } from '../../common/html';
import type { SentimentSplit } from '../analysis/analysis.types';
import { formatCount, formatMean, wholePercents } from './report-format';

/**
 * The report's charts: horizontal bars as inline SVG. Each bar is drawn in a 100-unit-wide viewBox
 * stretched to the width of its column, so a width of 37.5 is 37.5 % of the whole at any screen size.
 * Labels and numbers stay in HTML beside the bars, where they wrap and keep their size; the SVG carries
 * the same numbers in its title for screen readers.
 */

/** The fill of an ordinary bar: the page's accent. */
const BAR_FILL = '#2f5bd3';
/** The empty part of a bar: light enough to read as "not this", drawn as SVG so that it prints. */
const TRACK_FILL = '#eef1f5';
/** Colour-blind-safe (Okabe-Ito orange, a neutral grey, Okabe-Ito blue); always shown with their labels. */
export const SENTIMENT_FILLS = { negative: '#d55e00', neutral: '#8c96a3', positive: '#0072b2' } as const;

const BAR_HEIGHT = 10;

/** `part` of `whole` as a width in the 0..100 viewBox, to two decimals; 0 when there is no whole. */
export function barWidth(part: number, whole: number): number {
  if (!(whole > 0) || !(part > 0)) return 0;
  return Math.round(Math.min(part / whole, 1) * 10_000) / 100;
}

function svg(summary: string, shapes: string): string {
  const text = escapeHtml(summary);
  return `<svg class="bar" viewBox="0 0 100 ${BAR_HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${text}"><title>${text}</title><rect x="0" y="0" width="100" height="${BAR_HEIGHT}" fill="${TRACK_FILL}"/>${shapes}</svg>`;
}

function rect(x: number, width: number, fill: string): string {
  return width > 0 ? `<rect x="${x}" y="0" width="${width}" height="${BAR_HEIGHT}" fill="${fill}"/>` : '';
}

/** One bar: `part` of `whole`, summarised for screen readers by `summary` (plain text, escaped here). */
export function barChart(part: number, whole: number, summary: string): string {
  return svg(summary, rect(0, barWidth(part, whole), BAR_FILL));
}

/**
 * Negative, neutral and positive stacked in that order, each as its share of the scored answers. Edges
 * come from the running totals, so rounding never leaves a gap or overlaps, and the three end at 100.
 */
export function sentimentChart(split: SentimentSplit, summary: string): string {
  const whole = split.negative + split.neutral + split.positive;
  let before = 0;
  const shapes = (['negative', 'neutral', 'positive'] as const).map((kind) => {
    const x = barWidth(before, whole);
    before += split[kind];
    return rect(x, Math.round((barWidth(before, whole) - x) * 100) / 100, SENTIMENT_FILLS[kind]);
  });
  return svg(summary, shapes.join(''));
}

/** The sentiment of some answers: the stacked bar, its numbers as a legend, and the mean. */
export function sentimentBlock(split: SentimentSplit, subject: string): string {
  const whole = split.negative + split.neutral + split.positive;
  // An answer the scorer cannot read (a language it does not know, no word it knows) is not scored, rather than counted as neutral.
  if (whole === 0) return `<p class="empty">Not scored: no ${subject} could be scored for sentiment.</p>`;
  const kinds = ['negative', 'neutral', 'positive'] as const;
  const percents = wholePercents(kinds.map((kind) => split[kind]));
  const parts = kinds.map((kind, i) => ({ kind, text: `${capitalize(kind)} ${formatCount(split[kind])} (${percents[i]}%)` }));
  const scored = `${formatCount(whole)} scored ${subject}`;
  const mean = `mean ${formatMean(split.mean)}`;
  const summary = `Sentiment of ${scored}: ${parts.map((p) => p.text.toLowerCase()).join(', ')}; ${mean}`;
  const legend = parts.map((p) => `<li><span class="key key--${p.kind}" aria-hidden="true">&#9632;</span>${p.text}</li>`).join('');
  return `<div class="sentiment">
${sentimentChart(split, summary)}
<ul class="legend">${legend}</ul>
<p class="bar-note">${scored}; ${mean} on a scale from &minus;1 (most negative) to +1 (most positive).</p>
</div>`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
