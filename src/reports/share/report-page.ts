import type { InviteCounts, QuestionReport, Quote, Theme } from '../analysis/analysis.types';
import type { StoredResult } from '../report-codes';
import { barChart, sentimentBlock } from './report-charts';
import { escapeHtml, timeElement } from '../../common/html';
import { NOT_KNOWN, formatCount, formatMean, formatMinutes, formatPercent, formatWords, plural } from './report-format';
import { REPORT_PAGE_CSP, REPORT_STYLE } from './report-style';

export { REPORT_PAGE_CSP };

/**
 * The page of a shared report (/r/{shareID}): one self-contained document, no script, nothing from
 * another host, readable on a phone and on paper. Everything that comes from data goes through
 * escapeHtml, in SVG titles and attributes as in text. Quotes are printed exactly as stored: they are
 * verbatim by contract, and a reader checks them against the transcript. The invite a quote comes from
 * is never shown: a linkID opens the interviewee's room.
 */

/** What the page shows: the report's result and the few facts around it. */
export interface SharedReportView {
  productName: string;
  interviewName: string;
  /** null: the built-in offline analysis. */
  analyst: string | null;
  /** When the report was asked for. */
  createdOn: Date;
  /** When it was made. */
  completedOn: Date;
  /** The answers it covers are those stored up to this time. */
  asOf: Date;
  /** When this share link stops working. */
  expiresOn: Date;
  result: StoredResult;
  /** The first answers coded with a theme of a question, as the report read them (erased ones are gone). */
  answersOf(themeID: string): string[];
}

export const OTHER_ANSWERS_HEADING = 'Other answers (not attributed to a question)';

function layout(title: string, body: string): string {
  // The empty data: icon keeps the browser from asking for /favicon.ico (the CSP's img-src allows it).
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${REPORT_STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function header(view: SharedReportView): string {
  const analysis = view.analyst === null ? 'Analysis: Built-in offline analysis' : `Analyst: ${escapeHtml(view.analyst)}`;
  return `<header class="card">
<p class="eyebrow">${escapeHtml(view.productName)}</p>
<h1>${escapeHtml(view.interviewName)}</h1>
<div class="meta">
<p>Made ${timeElement(view.completedOn)} from the answers stored up to ${timeElement(view.asOf)}.</p>
<p>${analysis}</p>
<p>This link works until ${timeElement(view.expiresOn)}.</p>
</div>
</header>`;
}

function stat(label: string, value: string, hint: string): string {
  return `<div class="stat"><dt>${label}</dt><dd>${value}<span class="hint">${hint}</span></dd></div>`;
}

function figures(result: StoredResult): string {
  const { invites, sentiment } = result;
  const words = result.medianAnswerWords === null ? NOT_KNOWN : `${formatWords(result.medianAnswerWords)} words`;
  return `<section class="card" aria-labelledby="figures-title">
<h2 id="figures-title">At a glance</h2>
<dl class="stats">
${stat('Invites', formatCount(invites.total), 'made for this interview')}
${stat('Completed', formatCount(invites.completed), 'interviews finished')}
${stat('Completion rate', formatPercent(result.completionRate), 'of the invites that were started')}
${stat('Median duration', formatMinutes(result.medianDurationSeconds), 'from start to completion')}
${stat('Median answer', words, 'per answer')}
${stat('Mean sentiment', sentiment.mean === null ? 'not scored' : formatMean(sentiment.mean), sentiment.mean === null ? 'no answer could be scored' : 'from &minus;1 to +1')}
</dl>
<div class="keep">
<h3 class="subhead">Sentiment of all answers</h3>
${sentimentBlock(sentiment, 'answers')}
</div>
</section>`;
}

/**
 * The funnel. InviteCounts holds each invite's status now, not its history, so "started" is the invites
 * whose status shows they were started (in progress, completed or abandoned); one that expired or was
 * revoked after it was started is counted there, not here. The bar says so rather than guess.
 */
function funnel(invites: InviteCounts): string {
  const started = invites.started + invites.completed + invites.abandoned;
  const steps: [string, number, string][] = [
    ['Invited', invites.total, 'Every invite made for this interview.'],
    [
      'Started',
      started,
      'Invites now in progress, completed or abandoned. An invite that expired or was revoked after it was started is counted under &ldquo;expired&rdquo; or &ldquo;revoked&rdquo; instead.',
    ],
    ['Completed', invites.completed, 'Interviews the interviewee finished.'],
  ];
  const now: [string, number][] = [
    ['Pending (not started)', invites.pending],
    ['In progress', invites.started],
    ['Completed', invites.completed],
    ['Abandoned', invites.abandoned],
    ['Expired', invites.expired],
    ['Revoked', invites.revoked],
    ['Screened out', invites.screenedout ?? 0],
    ['Over quota', invites.overquota ?? 0],
  ];
  const bars =
    invites.total === 0
      ? '<p class="empty">No invites had been made for this interview.</p>'
      : `<ol class="bars">
${steps
  .map(([label, count, definition], i) => {
    const share = formatPercent(count / invites.total);
    const figure = i === 0 ? plural(count, 'invite', 'invites') : `${formatCount(count)} of ${formatCount(invites.total)} (${share})`;
    const summary = i === 0 ? `${label}: ${figure}` : `${label}: ${formatCount(count)} of ${plural(invites.total, 'invite', 'invites')} (${share})`;
    return `<li><div class="bar-head"><span class="label">${label}</span><span class="count">${figure}</span></div>
${barChart(count, invites.total, summary)}
<p class="bar-note">${definition}</p></li>`;
  })
  .join('\n')}
</ol>`;
  return `<section class="card" aria-labelledby="funnel-title">
<h2 id="funnel-title">From invite to completed interview</h2>
${bars}
<div class="keep">
<h3 class="subhead">Where the invites are now</h3>
<dl class="breakdown">
${now.map(([label, count]) => `<div><dt>${label}</dt><dd>${formatCount(count)}</dd></div>`).join('\n')}
</dl>
</div>
</section>`;
}

function quotes(list: Quote[]): string {
  // The original is what the interviewee said, verbatim; a model's translation (a report in another language) is shown beside it, marked as such.
  return list
    .map((quote) => {
      const translation = quote.translation ? `<p class="translation"><span class="translation__label">Translation:</span> ${escapeHtml(quote.translation)}</p>` : '';
      return `<blockquote class="quote"><p>${escapeHtml(quote.text)}</p>${translation}</blockquote>`;
    })
    .join('\n');
}

/**
 * A theme's answers, collapsed: a reader opens them to check the theme against what was said. Printed
 * as text, like quotes; at most the first SHARED_ANSWERS_PER_THEME, and how many more there are.
 */
function themeAnswers(theme: Theme, answers: readonly string[]): string {
  if (answers.length === 0) return '';
  const more = theme.mentions - answers.length;
  const rest = more > 0 ? `\n<p class="note">And ${plural(more, 'more answer', 'more answers')}: reports/getCodes lists them all.</p>` : '';
  return `
<details class="answers"><summary>${plural(theme.mentions, 'answer', 'answers')} in this theme</summary>
<ul class="answer-list">
${answers.map((text) => `<li>${escapeHtml(text)}</li>`).join('\n')}
</ul>${rest}
</details>`;
}

/**
 * Themes as bars of their `answers`: within a question, as a share of the interviewees who answered it;
 * across the interview, where no such total is known, relative to the largest theme. A question's
 * themes list their answers (`answersOf`).
 */
function themeList(themes: Theme[], heading: 'h3' | 'h5', answered: number | null, answersOf?: (themeID: string) => string[]): string {
  const whole = Math.max(answered ?? 0, ...themes.map((theme) => theme.answers));
  const items = themes.map((theme) => {
    const label = escapeHtml(theme.theme);
    const figure =
      answered === null
        ? plural(theme.answers, 'interviewee', 'interviewees')
        : `${formatCount(theme.answers)} of ${formatCount(whole)} (${formatPercent(whole > 0 ? theme.answers / whole : null)})`;
    const summary =
      answered === null
        ? `${theme.theme}: ${figure}`
        : `${theme.theme}: ${formatCount(theme.answers)} of the ${plural(whole, 'interviewee', 'interviewees')} who answered (${formatPercent(whole > 0 ? theme.answers / whole : null)})`;
    const description = theme.description ? `\n<p class="theme__description">${escapeHtml(theme.description)}</p>` : '';
    const emerging = theme.emerging ? ' <span class="tag">new beside the codebook</span>' : '';
    return `<li class="theme">
<div class="bar-head"><${heading} class="label">${label}${emerging}</${heading}><span class="count">${figure}</span></div>
${barChart(theme.answers, whole, summary)}${description}
${quotes(theme.quotes)}${answersOf ? themeAnswers(theme, answersOf(theme.themeID)) : ''}
</li>`;
  });
  return `<ol class="themes">
${items.join('\n')}
</ol>`;
}

function questionTitle(question: QuestionReport): string {
  if (question.questionIndex === null) return OTHER_ANSWERS_HEADING;
  return question.question ?? `Question ${question.questionIndex + 1}`;
}

/** How much of the question the themes hold, and what fell in none of them. */
function coverageLine(question: QuestionReport): string {
  if (question.coverage === null) return '';
  const other = question.other.mentions;
  const rest =
    other === 0
      ? 'every answer is in a theme'
      : `${plural(other, 'answer', 'answers')} (from ${plural(question.other.answers, 'interviewee', 'interviewees')}) in no theme: <em>other</em>`;
  return `<p class="meta coverage">Coverage ${formatPercent(question.coverage)} &middot; ${rest}</p>\n`;
}

function questionSection(question: QuestionReport, id: string, answersOf: (themeID: string) => string[]): string {
  const eyebrow = question.questionIndex === null ? '' : `<p class="eyebrow">Question ${question.questionIndex + 1}</p>\n`;
  const about =
    question.questionIndex === null
      ? '<p class="note">The closing &ldquo;anything else?&rdquo; and answers that could not be tied to a question of the guide.</p>\n'
      : '';
  const head = `<section class="card question" id="${id}" aria-labelledby="${id}-title">
${eyebrow}<h3 class="question-title" id="${id}-title">${escapeHtml(questionTitle(question))}</h3>
${about}`;
  if (question.answered === 0) return `${head}<p class="empty">No answers to this question.</p>\n</section>`;
  const words = question.medianWords === null ? '' : ` &middot; median answer ${formatWords(question.medianWords)} ${question.medianWords === 1 ? 'word' : 'words'}`;
  const keyphrases = question.keyphrases.length
    ? `<div class="keep">
<h4>Key phrases</h4>
<p class="note">How many interviewees used each.</p>
<ul class="phrases">${question.keyphrases.map((k) => `<li>${escapeHtml(k.phrase)}<span class="count">${formatCount(k.answers)}</span></li>`).join('')}</ul>
</div>\n`
    : '';
  const themes = question.themes.length
    ? `<p class="note">Each bar is the share of the interviewees who answered this question.</p>\n${coverageLine(question)}${themeList(question.themes, 'h5', question.answered, answersOf)}`
    : '<p class="note">No themes were found among these answers.</p>';
  const extremes = question.quotes.length ? `<h4>The most positive and the most negative answers</h4>\n${quotes(question.quotes)}\n` : '';
  return `${head}<p class="meta">Answered by ${plural(question.answered, 'interviewee', 'interviewees')}${words}</p>
<div class="keep">
<h4>Sentiment</h4>
${sentimentBlock(question.sentiment, 'answers')}
</div>
${keyphrases}<h4>Themes</h4>
${themes}
${extremes}</section>`;
}

function questionsPart(questions: QuestionReport[], answersOf: (themeID: string) => string[]): string {
  const ids = questions.map((question, i) => (question.questionIndex === null ? `other-${i + 1}` : `question-${i + 1}`));
  const contents = questions.length
    ? `<details class="toc card"><summary>Questions (${formatCount(questions.length)})</summary>
<ol>
${questions.map((question, i) => `<li><a href="#${ids[i]}">${escapeHtml(questionTitle(question))}</a></li>`).join('\n')}
</ol>
</details>`
    : '<p class="empty card">This report has no questions.</p>';
  return `<h2 class="visually-hidden">Questions</h2>
${contents}
${questions.map((question, i) => questionSection(question, ids[i], answersOf)).join('\n')}`;
}

function interviewThemes(themes: Theme[]): string {
  const body = themes.length
    ? `<p class="note">Each bar is relative to the largest theme.</p>\n${themeList(themes, 'h3', null)}`
    : '<p class="empty">No themes were found across the interview.</p>';
  return `<section class="card" aria-labelledby="themes-title">
<h2 id="themes-title">Themes across the interview</h2>
${body}
</section>`;
}

function method(view: SharedReportView): string {
  const { result } = view;
  const analysis = view.analyst === null ? 'the built-in offline analysis' : `the analyst ${escapeHtml(view.analyst)}`;
  const erasedQuotes = result.erased.quotes;
  const dropped =
    result.droppedQuotes > 0
      ? ` ${plural(result.droppedQuotes, 'quote', 'quotes')} the analyst offered did not appear word for word and ${result.droppedQuotes === 1 ? 'was' : 'were'} left out.`
      : erasedQuotes > 0
        ? ''
        : ' No quote had to be left out.';
  const erased =
    result.erased.invites > 0 || erasedQuotes > 0
      ? `\n<li>Interviewees were erased after the report was made: their answers, codes${erasedQuotes > 0 ? ` and ${plural(erasedQuotes, 'quote', 'quotes')}` : ' and quotes'} were taken out, and every figure is counted without them.</li>`
      : '';
  const notes = result.notes.length
    ? `<h3 class="subhead">Notes from the analysis</h3>
<ul class="method">
${result.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('\n')}
</ul>`
    : '';
  return `<section class="card" aria-labelledby="method-title">
<h2 id="method-title">How this report was made</h2>
<ul class="method">
<li>Asked for on ${timeElement(view.createdOn)} and made on ${timeElement(view.completedOn)} by ${analysis}. It covers the answers stored up to ${timeElement(view.asOf)}; later answers are not in it.</li>
<li>Counts of interviewees are counts of invites: each invite is one interview. Every answer is coded: it belongs to some of its question&rsquo;s themes, or to <em>other</em>; every count is counted from those codes.</li>
<li>Sentiment: each answer is scored from &minus;1 to +1 (method: ${escapeHtml(result.sentimentMethod)}); &minus;0.05 or below counts as negative, 0.05 or above as positive, anything between as neutral.</li>
<li>Quotes are verbatim: each was checked to appear, word for word, in the interviewee&rsquo;s answer.${dropped}</li>${erased}
</ul>
${notes}
</section>`;
}

/** The whole HTML document of a shared report. */
export function renderReportPage(view: SharedReportView): string {
  const { result } = view;
  return layout(
    `Report: ${view.interviewName} \u2014 ${view.productName}`,
    `<main class="report">
${header(view)}
${figures(result)}
${funnel(result.invites)}
${questionsPart(result.questions, view.answersOf)}
${interviewThemes(result.themes)}
${method(view)}
</main>`,
  );
}

/** The page for a share link that is unknown or has expired: the same for both, and no detail. */
export function renderReportNotFound(): string {
  return renderReportError('Report not found', 'This report link is not valid or has expired', 'If you still need the report, ask the person who shared it with you for a new link.');
}

/** A page that says, in plain words, why the report cannot be shown now (too many requests, the service away). */
export function renderReportError(title: string, heading: string, text: string): string {
  return layout(
    title,
    `<main class="report">
<section class="card" role="status">
<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>
</section>
</main>`,
  );
}
