import { escapeHtml } from '../common/html';
import { translate } from '../languages/messages';
import { layout } from './room-page';
import type { ScreenerQuestion } from '../recruitment/recruitment.entity';
import { SCREENER_FIELD_PREFIX } from '../recruitment/recruitment.limits';

/**
 * The open link's pages, in the room's layout (its stylesheet and script, its CSP): the screener, shown
 * before the consent, and the pages of an outcome without a redirect. Everything from data is escaped.
 */

export interface OpenPageContext {
  language: string;
  title: string;
  productName: string;
  productImage: string | null;
}

const t = (language: string, key: string) => escapeHtml(translate(language, key));

function header(c: OpenPageContext): string {
  const image = c.productImage ? `<img class="product__image" src="${escapeHtml(c.productImage)}" alt="" width="56" height="56">` : '';
  return `<header class="room__header">
  ${image}
  <div>
    <p class="product__name">${escapeHtml(c.productName)}</p>
    <h1 class="room__title">${escapeHtml(c.title)}</h1>
  </div>
</header>`;
}

function page(c: OpenPageContext, status: string, content: string): string {
  return layout(`${c.title} · ${c.productName}`, `<main class="room" data-status="${escapeHtml(status)}">\n${header(c)}\n${content}\n</main>`, c.language, c.productImage);
}

/**
 * The screener: one fieldset per question, radio buttons or checkboxes; sent back to the same address
 * (GET: the panel's parameters ride along as hidden fields, and a reload or a second tab does no harm:
 * one participant id makes one invite).
 */
export function renderScreener(c: OpenPageContext, screener: readonly ScreenerQuestion[], carried: Record<string, string>, missing: boolean): string {
  const l = c.language;
  const hidden = Object.entries(carried)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n    ');
  const questions = screener
    .map((q, i) => {
      const type = q.multiple ? 'checkbox' : 'radio';
      const name = `${SCREENER_FIELD_PREFIX}q_${q.screenerID}`;
      const options = q.options
        .map(
          (o, k) => `<div class="check">
        <input id="sq${i}-${k}" name="${escapeHtml(name)}" type="${type}" value="${escapeHtml(o.option)}"${q.multiple ? '' : ' required'}>
        <label for="sq${i}-${k}">${escapeHtml(o.option)}</label>
      </div>`,
        )
        .join('\n      ');
      const hint = q.multiple ? `\n      <p class="composer__hint">${t(l, 'open.screener.multiple')}</p>` : '';
      return `<fieldset class="field screener__question">
      <legend>${escapeHtml(q.question)}</legend>${hint}
      ${options}
    </fieldset>`;
    })
    .join('\n    ');
  const error = missing ? `<p id="form-error" class="error" role="alert">${t(l, 'open.screener.missing')}</p>` : '';
  return page(
    c,
    'screener',
    `<section class="card" aria-labelledby="screener-title">
  <h2 id="screener-title">${t(l, 'open.screener.title')}</h2>
  <p>${t(l, 'open.screener.intro')}</p>
  <form id="screener-form" class="form" method="get">
    ${hidden}
    <input type="hidden" name="${SCREENER_FIELD_PREFIX}screened" value="1">
    ${questions}
    ${error}
    <button type="submit" class="button">${t(l, 'open.button.continue')}</button>
  </form>
</section>`,
  );
}

/** An outcome without a redirect (screened out, over quota), or a closed study: a message, no inputs. */
export function renderOpenMessage(c: OpenPageContext, kind: 'screenedout' | 'overquota' | 'closed'): string {
  const l = c.language;
  return page(
    c,
    kind,
    `<section class="card card--expired" role="status">
  <h2>${t(l, `open.${kind}.title`)}</h2>
  <p>${t(l, `open.${kind}.text`)}</p>
</section>`,
  );
}

/** A closed study (410) or a link without its participant id (400): a page without the study's face. */
export function renderOpenError(kind: 'closed' | 'missing', language: string): string {
  const title = translate(language, `open.${kind}.title`);
  return layout(
    title,
    `<main class="room room--error">
<section class="card card--expired" role="status">
  <h1 class="card__title">${escapeHtml(title)}</h1>
  <p>${t(language, `open.${kind}.text`)}</p>
</section>
</main>`,
    language,
  );
}
