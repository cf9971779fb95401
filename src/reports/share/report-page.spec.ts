import { createHash } from 'node:crypto';
import type { QuestionReport, SentimentSplit, Theme } from '../analysis/analysis.types';
import type { StoredResult } from '../report-codes';
import { REPORT_PAGE_CSP, type SharedReportView, renderReportNotFound, renderReportPage } from './report-page';

const LINK = 'Q2hhbmdlIG1lIGlmIHlvdSBjYW4gcmVhZCB0aGlz';

const split = (negative: number, neutral: number, positive: number, mean: number | null): SentimentSplit => ({
  mean,
  negative,
  neutral,
  positive,
  scored: negative + neutral + positive,
});

const theme = (label: string, answers: number, ...texts: string[]): Theme => ({
  themeID: `id-${label}`,
  theme: label,
  description: `About ${label}.`,
  keyphrases: [],
  answers,
  mentions: answers,
  quotes: texts.map((text, turnIndex) => ({ linkID: LINK, turnIndex, text })),
  emerging: false,
  language: 'en',
});

const question = (questionIndex: number | null, overrides: Partial<QuestionReport> = {}): QuestionReport => ({
  questionIndex,
  question: questionIndex === null ? null : `What about part ${questionIndex + 1}?`,
  answered: 20,
  medianWords: 23.5,
  sentiment: split(1, 1, 2, 0.3),
  keyphrases: [{ phrase: 'onboarding flow', answers: 9 }],
  themes: [theme('Setup takes too long', 7, 'it took me most of an afternoon')],
  quotes: [{ linkID: LINK, turnIndex: 4, text: 'I love how fast the search is now' }],
  coverage: 0.9,
  other: { answers: 2, mentions: 3 },
  ...overrides,
});

const result = (overrides: Partial<StoredResult> = {}): StoredResult => ({
  invites: { total: 40, pending: 8, started: 3, completed: 12, abandoned: 5, expired: 10, revoked: 2, screenedout: 0, overquota: 0, flagged: 0 },
  completionRate: 0.6,
  medianDurationSeconds: 754,
  medianAnswerWords: 18,
  sentiment: split(30, 22, 28, -0.1234),
  questions: [question(0), question(1, { answered: 0, medianWords: null, sentiment: split(0, 0, 0, null), keyphrases: [], themes: [], quotes: [] }), question(null)],
  themes: [theme('Onboarding friction', 11, 'setup was the hard part'), theme('Search speed', 6, 'search feels instant now')],
  segments: [],
  droppedQuotes: 2,
  notes: ['The themes of question 2 fell back to the offline analysis.'],
  sentimentMethod: 'vader',
  erased: { invites: 0, quotes: 0 },
  ...overrides,
});

const view = (overrides: Partial<SharedReportView> = {}): SharedReportView => ({
  productName: 'Acme Notes',
  interviewName: 'Onboarding study',
  analyst: null,
  createdOn: new Date('2026-11-22T17:50:00Z'),
  completedOn: new Date('2026-11-22T17:56:00Z'),
  asOf: new Date('2026-11-22T17:49:30Z'),
  expiresOn: new Date('2026-11-29T08:05:00Z'),
  result: result(),
  answersOf: () => [],
  ...overrides,
});

/** The one inline SVG whose aria-label is `label` (as it appears in the markup, escaped). */
function svgLabelled(html: string, label: string): string {
  const found = [...html.matchAll(/<svg [^>]*aria-label="([^"]*)"[^>]*>[\s\S]*?<\/svg>/g)].filter((m) => m[1] === label);
  expect(found.map((m) => m[1])).toEqual([label]);
  return found[0][0];
}

/** The drawn parts of a bar (the track, 100 wide, left out): [x, width, fill]. */
function shapes(svg: string): [number, number, string][] {
  return [...svg.matchAll(/<rect x="([\d.]+)" y="0" width="([\d.]+)" height="10" fill="(#[0-9a-f]{6})"\/>/g)]
    .map((m): [number, number, string] => [Number(m[1]), Number(m[2]), m[3]])
    .filter(([, width], i) => !(i === 0 && width === 100));
}

/** The element with id `id` up to its closing </section>. */
function section(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
}

const ALLOWED_TAGS = new Set(
  'html head meta title link style body main header section div p h1 h2 h3 h4 h5 dl dt dd span ol ul li svg rect time blockquote details summary a em'.split(' '),
);

describe(renderReportPage.name, () => {
  describe('text from the data', () => {
    const payloads = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '</style><style>*{display:none}</style>', ']]><x>'];
    const hostile = (n: number) => `${payloads[n % payloads.length]} #${n}`;
    const hostileView = view({
      productName: hostile(0),
      interviewName: hostile(1),
      analyst: hostile(2),
      result: result({
        questions: [
          question(0, {
            question: hostile(3),
            keyphrases: [{ phrase: hostile(4), answers: 2 }],
            themes: [{ ...theme(hostile(5), 3), description: hostile(6), quotes: [{ linkID: LINK, turnIndex: 1, text: hostile(7) }] }],
            quotes: [{ linkID: LINK, turnIndex: 2, text: hostile(8) }],
          }),
        ],
        themes: [{ ...theme(hostile(9), 1), description: hostile(10), quotes: [{ linkID: LINK, turnIndex: 3, text: hostile(11) }] }],
        notes: [hostile(12)],
        sentimentMethod: hostile(13),
      }),
      answersOf: () => [hostile(14)],
    });
    const html = renderReportPage(hostileView);

    it('comes out as text: only the page’s own elements, no script, no event handler, one style block', () => {
      // Every tag is well formed (attribute values quoted), of a kind the page itself writes, and has no on… attribute.
      const tags = [...html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[\w:-]+(?:="[^"<>]*")?)*)\s*\/?>/g)];
      expect(tags).toHaveLength(html.match(/<[a-zA-Z]/g)!.length);
      expect([...new Set(tags.map((m) => m[1].toLowerCase()))].filter((tag) => !ALLOWED_TAGS.has(tag))).toEqual([]);
      const attributes = tags.flatMap((m) => [...m[2].matchAll(/\s+([\w:-]+)(?:="[^"]*")?/g)].map((a) => a[1].toLowerCase()));
      expect(attributes.filter((name) => name.startsWith('on'))).toEqual([]);
      expect(attributes).toContain('aria-label');
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img/i);
      expect(html.match(/<style>/g)).toHaveLength(1);
      expect(html.match(/<\/style>/g)).toHaveLength(1);
      expect(html).not.toContain(']]>');
      expect(html).not.toMatch(/\sstyle=/);
    });

    it('shows every field, escaped, in the text and in the SVG titles and labels that repeat it', () => {
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; #0');
      expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt; #1');
      expect(html).toContain('&lt;/style&gt;&lt;style&gt;*{display:none}&lt;/style&gt; #2');
      for (let n = 0; n <= 14; n++) expect(html).toContain(`#${n}`);
      expect(html).toContain('<li>&lt;/style&gt;&lt;style&gt;*{display:none}&lt;/style&gt; #14</li>');
      expect(html).toContain('<title>Report: &quot;&gt;&lt;img src=x onerror=alert(1)&gt; #1 \u2014 &lt;script&gt;alert(1)&lt;/script&gt; #0</title>');
      expect(html).toContain('Analyst: &lt;/style&gt;&lt;style&gt;*{display:none}&lt;/style&gt; #2');
      // A theme label inside the SVG: aria-label and <title> both escaped.
      const label = '&quot;&gt;&lt;img src=x onerror=alert(1)&gt; #5: 3 of the 20 interviewees who answered (15%)';
      expect(svgLabelled(html, label)).toContain(`<title>${label}</title>`);
      expect(html).toContain('<title>&quot;&gt;&lt;img src=x onerror=alert(1)&gt; #9: 1 interviewee</title>');
      expect(html).toContain('>]]&gt;&lt;x&gt; #3</h3>');
      expect(html).toContain('<blockquote class="quote"><p>]]&gt;&lt;x&gt; #11</p></blockquote>');
    });
  });

  it('prints a quote exactly as stored, escaped, in a blockquote: spaces, line breaks and quotation marks kept', () => {
    const text = '  He said "it\'s <b>fine</b>" & left.\n\nThen   nothing.  ';
    const html = renderReportPage(view({ result: result({ questions: [question(0, { quotes: [{ linkID: LINK, turnIndex: 1, text }] })] }) }));
    expect(html).toContain('<blockquote class="quote"><p>  He said &quot;it&#39;s &lt;b&gt;fine&lt;/b&gt;&quot; &amp; left.\n\nThen   nothing.  </p></blockquote>');
    expect(html).toContain('<blockquote class="quote"><p>it took me most of an afternoon</p></blockquote>');
  });

  it("shows a quote's translation beside its original, both escaped, and nothing more for a quote without one", () => {
    const quotes = [
      { linkID: LINK, turnIndex: 1, text: 'Der Import hat <zwei> Abende gedauert', translation: 'The import took <two> evenings' },
      { linkID: LINK, turnIndex: 3, text: 'it took me most of an afternoon', translation: null },
    ];
    const html = renderReportPage(view({ result: result({ questions: [question(0, { quotes })] }) }));
    expect(html).toContain(
      '<blockquote class="quote"><p>Der Import hat &lt;zwei&gt; Abende gedauert</p><p class="translation"><span class="translation__label">Translation:</span> The import took &lt;two&gt; evenings</p></blockquote>',
    );
    expect(html).toContain('<blockquote class="quote"><p>it took me most of an afternoon</p></blockquote>');
  });

  it('never shows the invite a quote comes from: a linkID opens the interviewee’s room', () => {
    expect(renderReportPage(view())).not.toContain(LINK);
  });

  it('is one document that loads nothing from anywhere', () => {
    const html = renderReportPage(view());
    expect(html).not.toMatch(/https?:/i);
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    // The only references: the empty icon and the contents' links to its own sections.
    const references = [...html.matchAll(/\s(?:href|src|srcset|xlink:href|action|xmlns)="([^"]*)"/g)].map((m) => m[1]);
    expect(references.filter((ref) => ref !== 'data:,' && !/^#[\w-]+$/.test(ref))).toEqual([]);
    expect(references).toContain('data:,');
  });

  it('shows a link in a quote as text, never as a link', () => {
    const html = renderReportPage(
      view({ result: result({ questions: [question(0, { quotes: [{ linkID: LINK, turnIndex: 1, text: 'see https://example.com/x for the bug' }] })] }) }),
    );
    expect(html).toContain('<p>see https://example.com/x for the bug</p>');
    expect(html).not.toMatch(/href="https?:/);
  });

  it('gives every chart role="img" and a title that matches its aria-label', () => {
    const svgs = [...renderReportPage(view()).matchAll(/<svg ([^>]*)>(<title>[^<]*<\/title>)?/g)];
    // 3 funnel bars; sentiment overall, for questions 1 and 3; a theme each in questions 1 and 3; 2 across the interview.
    expect(svgs).toHaveLength(3 + 3 + 2 + 2);
    for (const [, attributes, title] of svgs) {
      expect(attributes).toContain('role="img"');
      const label = /aria-label="([^"]+)"/.exec(attributes)?.[1];
      expect(label).toMatch(/\d/);
      expect(title).toBe(`<title>${label}</title>`);
    }
  });

  it('has the head a shared page needs', () => {
    const html = renderReportPage(view());
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    expect(html).toContain('<title>Report: Onboarding study \u2014 Acme Notes</title>');
  });

  it('says in its header when it was made, what it covers, who analysed it and how long the link works, in UTC', () => {
    const html = renderReportPage(view());
    expect(html).toContain(
      'Made <time datetime="2026-11-22T17:56:00.000Z">22 November 2026, 17:56 UTC</time> from the answers stored up to <time datetime="2026-11-22T17:49:30.000Z">22 November 2026, 17:49 UTC</time>.',
    );
    expect(html).toContain('Analysis: Built-in offline analysis');
    expect(html).toContain('This link works until <time datetime="2026-11-29T08:05:00.000Z">29 November 2026, 08:05 UTC</time>.');
    expect(renderReportPage(view({ analyst: 'gpt-coder' }))).toContain('Analyst: gpt-coder');
    expect(html).toContain('Asked for on <time datetime="2026-11-22T17:50:00.000Z">22 November 2026, 17:50 UTC</time>');
  });

  it('puts the parts in order: header, figures, funnel, questions, themes across the interview, how it was made', () => {
    const html = renderReportPage(view());
    const at = ['<h1>', 'At a glance', 'From invite to completed interview', 'What about part 1?', 'Other answers (not attributed', 'Themes across the interview', 'How this report was made'].map(
      (marker) => html.indexOf(marker),
    );
    expect(at.every((position) => position > -1)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  describe('headline figures', () => {
    const figure = (html: string, label: string) => new RegExp(`<dt>${label}</dt><dd>([^<]*)<`).exec(html)?.[1];

    it('shows counts, the completion rate as a percentage, the median duration in minutes and the words', () => {
      const html = renderReportPage(view({ result: result({ invites: { total: 1234, pending: 1000, started: 10, completed: 200, abandoned: 4, expired: 20, revoked: 0, screenedout: 0, overquota: 0, flagged: 0 } }) }));
      expect(figure(html, 'Invites')).toBe('1,234');
      expect(figure(html, 'Completed')).toBe('200');
      expect(figure(html, 'Completion rate')).toBe('60%');
      expect(figure(html, 'Median duration')).toBe('13 min');
      expect(figure(html, 'Median answer')).toBe('18 words');
      expect(figure(html, 'Mean sentiment')).toBe('\u22120.12');
    });

    it('shows "–" for what is not known', () => {
      const html = renderReportPage(
        view({ result: result({ completionRate: null, medianDurationSeconds: null, medianAnswerWords: null, sentiment: split(0, 0, 0, null) }) }),
      );
      for (const label of ['Completion rate', 'Median duration', 'Median answer']) expect(figure(html, label)).toBe('–');
      // Answers that could not be scored: said so, never shown as a neutral 0.
      expect(figure(html, 'Mean sentiment')).toBe('not scored');
      expect(html).toContain('Not scored: no answers could be scored for sentiment.');
    });

    it('shows a short duration to a tenth of a minute, and one under two minutes in seconds', () => {
      expect(figure(renderReportPage(view({ result: result({ medianDurationSeconds: 330 }) })), 'Median duration')).toBe('5.5 min');
      expect(figure(renderReportPage(view({ result: result({ medianDurationSeconds: 62 }) })), 'Median duration')).toBe('62 s');
      expect(figure(renderReportPage(view({ result: result({ medianDurationSeconds: 4.4 }) })), 'Median duration')).toBe('4 s');
      expect(figure(renderReportPage(view({ result: result({ medianDurationSeconds: 120 }) })), 'Median duration')).toBe('2 min');
    });

    it('splits the sentiment of all answers into percentages that add up to 100', () => {
      // 30, 22 and 28 of 80 are 37.5 %, 27.5 % and 35 %: the half goes to the first.
      const html = renderReportPage(view());
      expect(html).toContain('Negative 30 (38%)</li>');
      expect(html).toContain('Neutral 22 (27%)</li>');
      expect(html).toContain('Positive 28 (35%)</li>');
      const bar = svgLabelled(html, 'Sentiment of 80 scored answers: negative 30 (38%), neutral 22 (27%), positive 28 (35%); mean \u22120.12');
      expect(shapes(bar)).toEqual([
        [0, 37.5, '#d55e00'],
        [37.5, 27.5, '#8c96a3'],
        [65, 35, '#0072b2'],
      ]);
    });
  });

  describe('the funnel', () => {
    it('draws invited, started (in progress, completed or abandoned) and completed, proportional to the invites', () => {
      const html = renderReportPage(view());
      expect(html).toContain('<span class="label">Invited</span><span class="count">40 invites</span>');
      expect(html).toContain('<span class="label">Started</span><span class="count">20 of 40 (50%)</span>');
      expect(html).toContain('<span class="label">Completed</span><span class="count">12 of 40 (30%)</span>');
      expect(shapes(svgLabelled(html, 'Invited: 40 invites'))).toEqual([[0, 100, '#2f5bd3']]);
      expect(shapes(svgLabelled(html, 'Started: 20 of 40 invites (50%)'))).toEqual([[0, 50, '#2f5bd3']]);
      expect(shapes(svgLabelled(html, 'Completed: 12 of 40 invites (30%)'))).toEqual([[0, 30, '#2f5bd3']]);
    });

    it('rounds widths to hundredths of the whole: 4 of 7 is 57.14, 2 of 7 is 28.57', () => {
      const html = renderReportPage(view({ result: result({ invites: { total: 7, pending: 1, started: 1, completed: 2, abandoned: 1, expired: 1, revoked: 1, screenedout: 0, overquota: 0, flagged: 0 } }) }));
      expect(shapes(svgLabelled(html, 'Started: 4 of 7 invites (57%)'))).toEqual([[0, 57.14, '#2f5bd3']]);
      expect(shapes(svgLabelled(html, 'Completed: 2 of 7 invites (29%)'))).toEqual([[0, 28.57, '#2f5bd3']]);
    });

    it('lists where every invite is now', () => {
      const html = renderReportPage(view());
      for (const [label, count] of [
        ['Pending (not started)', 8],
        ['In progress', 3],
        ['Completed', 12],
        ['Abandoned', 5],
        ['Expired', 10],
        ['Revoked', 2],
      ])
        expect(html).toContain(`<div><dt>${label}</dt><dd>${count}</dd></div>`);
    });

    it('says there were no invites instead of drawing empty bars', () => {
      const html = renderReportPage(view({ result: result({ invites: { total: 0, pending: 0, started: 0, completed: 0, abandoned: 0, expired: 0, revoked: 0, screenedout: 0, overquota: 0, flagged: 0 } }) }));
      expect(html).toContain('No invites had been made for this interview.');
      expect(html).not.toContain('aria-label="Invited:');
    });
  });

  describe('a question', () => {
    const html = renderReportPage(view());
    const first = section(html, 'question-1');

    it('shows its number, text, how many answered and the median words', () => {
      expect(first).toContain('<p class="eyebrow">Question 1</p>');
      expect(first).toContain('>What about part 1?</h3>');
      expect(first).toContain('Answered by 20 interviewees &middot; median answer 23.5 words');
    });

    it('draws its sentiment stacked negative, neutral, positive, with the numbers as text', () => {
      expect(first).toContain('Negative 1 (25%)</li>');
      expect(first).toContain('Neutral 1 (25%)</li>');
      expect(first).toContain('Positive 2 (50%)</li>');
      expect(first).toContain('4 scored answers; mean +0.30');
      const bar = svgLabelled(first, 'Sentiment of 4 scored answers: negative 1 (25%), neutral 1 (25%), positive 2 (50%); mean +0.30');
      expect(bar).toContain('role="img"');
      expect(shapes(bar)).toEqual([
        [0, 25, '#d55e00'],
        [25, 25, '#8c96a3'],
        [50, 50, '#0072b2'],
      ]);
    });

    it('lists its keyphrases with their counts', () => {
      expect(first).toContain('<li>onboarding flow<span class="count">9</span></li>');
    });

    it('draws each theme as its share of those who answered, followed by its quotes', () => {
      expect(first).toContain('<h5 class="label">Setup takes too long</h5><span class="count">7 of 20 (35%)</span>');
      const bar = svgLabelled(first, 'Setup takes too long: 7 of the 20 interviewees who answered (35%)');
      expect(bar).toContain('<title>Setup takes too long: 7 of the 20 interviewees who answered (35%)</title>');
      expect(shapes(bar)).toEqual([[0, 35, '#2f5bd3']]);
      expect(first.indexOf(bar)).toBeLessThan(first.indexOf('<blockquote class="quote"><p>it took me most of an afternoon</p></blockquote>'));
    });

    it('says how much the themes hold and how many answers fell in other', () => {
      expect(first).toContain('Coverage 90% &middot; 3 answers (from 2 interviewees) in no theme: <em>other</em>');
      const all = section(renderReportPage(view({ result: result({ questions: [question(0, { coverage: 1, other: { answers: 0, mentions: 0 } })] }) })), 'question-1');
      expect(all).toContain('Coverage 100% &middot; every answer is in a theme');
    });

    it('lists under each theme its answers, collapsed, as text, and how many more there are', () => {
      const answers = ['It took <b>ages</b> to set up.', 'Setup was slow & confusing.'];
      const page = renderReportPage(
        view({
          result: result({ questions: [question(0, { themes: [{ ...theme('Setup takes too long', 7), mentions: 9 }] })] }),
          answersOf: (themeID) => (themeID === 'id-Setup takes too long' ? answers : []),
        }),
      );
      const part = section(page, 'question-1');
      expect(part).toContain('<details class="answers"><summary>9 answers in this theme</summary>');
      expect(part).toContain('<li>It took &lt;b&gt;ages&lt;/b&gt; to set up.</li>\n<li>Setup was slow &amp; confusing.</li>');
      expect(part).toContain('And 7 more answers: reports/getCodes lists them all.');
      // A theme without answers to show has no list.
      expect(first).not.toContain('<details class="answers">');
    });

    it('marks a theme found beside the codebook', () => {
      const page = renderReportPage(view({ result: result({ questions: [question(0, { themes: [{ ...theme('Recipes repeat', 4), emerging: true }] })] }) }));
      expect(page).toContain('<h5 class="label">Recipes repeat <span class="tag">new beside the codebook</span></h5>');
    });

    it('shows its most positive and most negative answers', () => {
      expect(first).toMatch(/most negative answers<\/h4>\n<blockquote class="quote"><p>I love how fast the search is now<\/p><\/blockquote>/);
    });

    it('says so when no one answered it, and draws nothing', () => {
      const empty = section(html, 'question-2');
      expect(empty).toContain('>What about part 2?</h3>');
      expect(empty).toContain('<p class="empty">No answers to this question.</p>');
      expect(empty).not.toContain('<svg');
      expect(empty).not.toContain('Sentiment');
    });

    it('heads the unattributed answers as other answers', () => {
      const other = section(html, 'other-3');
      expect(other).toContain('>Other answers (not attributed to a question)</h3>');
      expect(other).not.toContain('Question ');
    });

    it('says when its answers could not be scored for sentiment or had no theme', () => {
      const page = renderReportPage(view({ result: result({ questions: [question(0, { sentiment: split(0, 0, 0, null), themes: [] })] }) }));
      expect(page).toContain('<p class="empty">Not scored: no answers could be scored for sentiment.</p>');
      expect(page).toContain('No themes were found among these answers.');
    });
  });

  it('draws the themes across the interview relative to the largest, with their quotes', () => {
    const html = renderReportPage(view());
    expect(html).toContain('<h3 class="label">Onboarding friction</h3><span class="count">11 interviewees</span>');
    expect(shapes(svgLabelled(html, 'Onboarding friction: 11 interviewees'))).toEqual([[0, 100, '#2f5bd3']]);
    // 6 of 11 = 54.545… %
    expect(shapes(svgLabelled(html, 'Search speed: 6 interviewees'))).toEqual([[0, 54.55, '#2f5bd3']]);
    expect(html).toContain('<blockquote class="quote"><p>search feels instant now</p></blockquote>');
  });

  it('says how it was made: the dropped quotes and the analysis notes, at the end', () => {
    const html = renderReportPage(view());
    const method = html.slice(html.indexOf('How this report was made'));
    expect(method).toContain('2 quotes the analyst offered did not appear word for word and were left out.');
    expect(method).toContain('<li>The themes of question 2 fell back to the offline analysis.</li>');
    expect(renderReportPage(view({ result: result({ droppedQuotes: 0, notes: [] }) }))).toContain('No quote had to be left out.');
    expect(method).toContain('(method: vader)');
  });

  it('never says no quote was left out when an erasure took quotes out, and says what the erasure did', () => {
    const html = renderReportPage(view({ result: result({ droppedQuotes: 0, erased: { invites: 1, quotes: 2 } }) }));
    expect(html).not.toContain('No quote had to be left out.');
    expect(html).toContain('Interviewees were erased after the report was made: their answers, codes and 2 quotes were taken out, and every figure is counted without them.');
  });

  it('renders a large report whole: 50 questions of 6 themes with 2 quotes each', () => {
    const themes = (q: number) => Array.from({ length: 6 }, (_, t) => theme(`Theme ${q}.${t}`, 3, `quote ${q}.${t}.a here`, `quote ${q}.${t}.b here`));
    const questions = Array.from({ length: 50 }, (_, q) => question(q, { themes: themes(q) }));
    const html = renderReportPage(view({ result: result({ questions, themes: themes(99) }) }));
    // 50 × 6 × 2 theme quotes, 50 extremes, 6 × 2 across the interview.
    expect(html.match(/<blockquote /g)).toHaveLength(600 + 50 + 12);
    expect(html).toContain('<p>quote 49.5.b here</p>');
  });
});

describe('REPORT_PAGE_CSP', () => {
  const styleHash = (html: string) => {
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    return createHash('sha256').update(styles[0][1], 'utf8').digest('base64');
  };

  it('allows exactly the style block in the page and nothing else', () => {
    expect(REPORT_PAGE_CSP).toBe(
      `default-src 'none'; style-src 'sha256-${styleHash(renderReportPage(view()))}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
  });

  it('fits the 404 page too', () => {
    expect(REPORT_PAGE_CSP).toContain(`'sha256-${styleHash(renderReportNotFound())}'`);
  });
});

describe(renderReportNotFound.name, () => {
  const html = renderReportNotFound();

  it('says the link is not valid or has expired, and nothing more about which', () => {
    expect(html).toContain('<h1>This report link is not valid or has expired</h1>');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).not.toMatch(/<script|https?:/i);
    expect(html).not.toMatch(/expired on|unknown|<time/i);
  });
});
