import { escapeHtml } from '../common/html';
import type { ConversationTurn } from '../invites/invite.entity';
import type { InviteStatus } from '../domain/invite-status';
import { directionOf } from '../languages/languages';
import { messagesWithPrefix, translate } from '../languages/messages';
import type { SessionDto } from './dto/session.dto';
import { ROOM_LIMITS } from './room.limits';
import { VOICE_LIMITS } from '../voice/voice.limits';

/**
 * The interview room as HTML: one document per state, rendered here; room.js and room.css (served by
 * the app, no CDN) take it from there. Everything that comes from data goes through escapeHtml, so a
 * transcript full of markup shows as text. Every fixed text comes from the language's catalog
 * (src/languages/catalogs); the script's own texts travel in the page as a JSON data block.
 */

/**
 * The room's own Content-Security-Policy: nothing but its own script and style; images from the room
 * itself and from the origin of the product's image alone (never any host: an injected <img> could
 * otherwise carry the page's contents to a server of anyone's choosing).
 */
export function roomCsp(productImage: string | null = null): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    ['img-src', "'self'", 'data:', imageOrigin(productImage)].filter(Boolean).join(' '),
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The http(s) origin of an image URL, as a CSP source expression; null for anything else. */
function imageOrigin(url: string | null): string | null {
  if (!url) return null;
  try {
    const { protocol, origin } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? origin : null;
  } catch {
    return null;
  }
}

/** How RoomService.start records the consent: "Consent given <ISO time>: <the text shown>" (the prefix stays English, for the team). */
const CONSENT_TURN = /^Consent given (\d{4}-\d\d-\d\dT[\d:.]+Z): ([\s\S]*)$/;

const ROLES = ['interviewer', 'interviewee', 'system'];

/** A time in the page's language, in UTC, inside a <time> that carries it exactly (room.js shows it in the reader's zone). */
function timeIn(date: Date, language: string): string {
  let text: string;
  try {
    text = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date) + ' UTC';
  } catch {
    text = date.toISOString();
  }
  return `<time datetime="${date.toISOString()}">${escapeHtml(text)}</time>`;
}

/** A catalog text with data filled in, all of it escaped; `html` values are markup made here (a <time>). */
function tx(language: string, key: string, values: Record<string, string | number> = {}, html: Record<string, string> = {}): string {
  const marks = Object.fromEntries(Object.keys(html).map((name, i) => [name, `\u0000${i}\u0000`]));
  let text = escapeHtml(translate(language, key, { ...values, ...marks }));
  Object.values(html).forEach((markup, i) => (text = text.replace(`\u0000${i}\u0000`, markup)));
  return text;
}

/**
 * One transcript turn; room.js builds the same markup for turns that arrive later. The consent record
 * reads as a line the interviewee can open to see what they agreed to, rather than as a raw timestamp.
 */
export function renderTurn(turn: ConversationTurn, language = 'en'): string {
  const consent = turn.role === 'system' ? CONSENT_TURN.exec(turn.content) : null;
  if (consent && !Number.isNaN(Date.parse(consent[1]))) {
    const when = tx(language, 'room.consent.when', {}, { time: timeIn(new Date(consent[1]), language) });
    return `<li class="turn turn--consent"><details><summary>${tx(language, 'room.consent.summary')}</summary><p class="turn__text">${when} ${escapeHtml(consent[2])}</p></details></li>`;
  }
  const role = ROLES.includes(turn.role) ? turn.role : 'system';
  return `<li class="turn turn--${role}"><span class="turn__who">${tx(language, `room.role.${role}`)}</span><p class="turn__text">${escapeHtml(turn.content)}</p></li>`;
}

/** The texts room.js shows itself (errors, the confirmation, role labels, the progress line), as JSON safe inside <script>. */
function scriptMessages(language: string): string {
  const messages = { ...messagesWithPrefix(language, 'client.'), ...messagesWithPrefix(language, 'room.role.'), 'room.progress': translate(language, 'room.progress') };
  return JSON.stringify(messages).replace(/</g, '\\u003c');
}

export function layout(title: string, body: string, language: string, icon: string | null = null): string {
  // Without an icon link the browser asks for /favicon.ico, which is not there: a 404 in every console.
  // No Referer leaves the page: the URL it would carry holds the linkID.
  return `<!doctype html>
<html lang="${escapeHtml(language)}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="theme-color" content="#f4f6f8">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${icon ? escapeHtml(icon) : 'data:,'}">
<link rel="stylesheet" href="/assets/room.css">
<script src="/assets/room.js" defer></script>
</head>
<body>
${body}
</body>
</html>
`;
}

function header(session: SessionDto): string {
  const language = session.language;
  const image = session.productImage ? `<img class="product__image" src="${escapeHtml(session.productImage)}" alt="" width="56" height="56">` : '';
  // "Question k of n" while the conversation runs; room.js updates it from each reply.
  const progress =
    session.progress && session.status === 'started'
      ? `\n    <p id="progress" class="room__progress">${tx(language, 'room.progress', { asked: session.progress.asked, total: session.progress.total })}</p>`
      : '';
  return `<header class="room__header">
  ${image}
  <div>
    <p class="product__name">${escapeHtml(session.productName)}</p>
    <h1 class="room__title">${escapeHtml(session.publicTitle)}</h1>${progress}
  </div>
</header>`;
}

/**
 * The interview's languages before the start (session.languages): plain links that reload the page with
 * ?lang=, which an `auto` interview follows, so that the choice works without the script; the start form
 * then sends the language shown and `start` records it. Each name is in its own language.
 */
function languageChoice(session: SessionDto): string {
  if (session.languages.length < 2) return '';
  const links = session.languages.map(({ language, name }) => {
    const current = language === session.language ? ' aria-current="true"' : '';
    return `<li><a class="languages__link" href="?lang=${encodeURIComponent(language)}" lang="${escapeHtml(language)}" hreflang="${escapeHtml(language)}" dir="${directionOf(language)}"${current}>${escapeHtml(name)}</a></li>`;
  });
  return `
  <nav class="languages" aria-label="${tx(session.language, 'room.label.language')}">
    <ul class="languages__list">${links.join('')}</ul>
  </nav>`;
}

function pending(session: SessionDto): string {
  const l = session.language;
  return `<section class="card" aria-labelledby="consent-title">${languageChoice(session)}
  <h2 id="consent-title">${tx(l, 'room.beforeStart')}</h2>
  <p id="consent-text" class="consent">${escapeHtml(session.consentText)}</p>${voiceNotice(session)}
  <form id="start-form" class="form" novalidate data-language="${escapeHtml(l)}">
    <div class="field">
      <label for="name">${tx(l, 'room.label.name')}</label>
      <input id="name" name="name" type="text" autocomplete="name" required maxlength="${ROOM_LIMITS.name}">
    </div>
    <div class="field">
      <label for="email">${tx(l, 'room.label.email')}</label>
      <input id="email" name="email" type="email" autocomplete="email" required maxlength="${ROOM_LIMITS.email}" dir="ltr">
    </div>
    <div class="field">
      <label for="occupation">${tx(l, 'room.label.occupation')} <span class="optional">${tx(l, 'room.label.optional')}</span></label>
      <input id="occupation" name="occupation" type="text" autocomplete="organization-title" maxlength="${ROOM_LIMITS.occupation}">
    </div>
    <div class="check">
      <input id="consent" name="consent" type="checkbox" required aria-describedby="consent-text">
      <label for="consent">${tx(l, 'room.label.agree')}</label>
    </div>
    <p id="form-error" class="error" role="alert" hidden></p>
    <button type="submit" class="button">${tx(l, 'room.button.start')}</button>
  </form>
</section>`;
}

/** Before the start of a voice interview: that answers are spoken (and kept, when they are), so that the interviewee knows before agreeing. */
function voiceNotice(session: SessionDto): string {
  if (session.mode !== 'voice') return '';
  const keep = session.keepAudio ? ` ${tx(session.language, 'room.voice.keepNotice')}` : '';
  return `\n  <p class="voice-notice">${tx(session.language, 'room.voice.notice')}${keep}</p>`;
}

/** A microphone, drawn inline (no request, nothing the CSP would refuse). */
const MICROPHONE =
  '<svg class="record__icon" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 14.5a3.5 3.5 0 0 0 3.5-3.5V5a3.5 3.5 0 1 0-7 0v6a3.5 3.5 0 0 0 3.5 3.5zm6-3.5a1 1 0 1 0-2 0 4 4 0 0 1-8 0 1 1 0 1 0-2 0 6 6 0 0 0 5 5.91V19H8.5a1 1 0 1 0 0 2h7a1 1 0 1 0 0-2H13v-2.09A6 6 0 0 0 18 11z"/></svg>';

/**
 * The voice controls of a voice interview, above the answer box (which stays: typing is always
 * possible). room.js drives them: it asks for the microphone on the first press, records up to
 * recordSeconds, sends the recording, and speaks each interviewer turn unless muted.
 */
function voiceControls(session: SessionDto): string {
  const l = session.language;
  return `<div id="voice" class="voice" data-state="idle" data-spoken-by="${session.questionsSpokenBy === 'server' ? 'server' : 'browser'}" data-max-seconds="${VOICE_LIMITS.recordSeconds}">
    <button type="button" id="record" class="record" aria-describedby="voice-status" autofocus>${MICROPHONE}<span class="record__label">${tx(l, 'room.voice.record')}</span><span id="record-time" class="record__time" aria-hidden="true"></span></button>
    <p id="voice-status" class="voice__status" role="status">${tx(l, 'room.voice.idle')}</p>
    <div class="voice__tools">
      <button type="button" id="resend" class="button button--quiet" hidden>${tx(l, 'room.voice.resend')}</button>
      <button type="button" id="replay" class="button button--quiet">${tx(l, 'room.voice.replay')}</button>
      <button type="button" id="mute" class="button button--quiet" aria-pressed="false">${tx(l, 'room.voice.mute')}</button>
    </div>
  </div>`;
}

function started(session: SessionDto): string {
  const l = session.language;
  const voice = session.mode === 'voice';
  return `<section class="conversation" aria-labelledby="conversation-title">
  <h2 id="conversation-title" class="visually-hidden">${tx(l, 'room.conversation')}</h2>
  <ol id="turns" class="turns" aria-live="polite" aria-relevant="additions">
    ${session.conversation.map((turn) => renderTurn(turn, l)).join('\n    ')}
  </ol>
  <p id="typing" class="typing" role="status" hidden><span class="typing__dots" aria-hidden="true"><span></span><span></span><span></span></span>${tx(l, 'room.typing')}</p>
</section>
<form id="reply-form" class="composer${voice ? ' composer--voice' : ''}" novalidate>
  ${voice ? voiceControls(session) : ''}
  <label for="answer" class="composer__label">${tx(l, 'room.label.answer')}</label>
  <p id="answer-hint" class="composer__hint">${tx(l, 'room.hint.answer')}</p>
  <textarea id="answer" name="content" rows="2" required maxlength="${ROOM_LIMITS.answer}" aria-describedby="answer-hint"${voice ? '' : ' autofocus'}></textarea>
  <p id="form-error" class="error" role="alert" hidden></p>
  <div class="composer__actions">
    <button type="submit" class="button">${tx(l, 'room.button.send')}</button>
    <button type="button" id="end" class="button button--quiet">${tx(l, 'room.button.end')}</button>
  </div>
</form>`;
}

/**
 * The way on to a panel's completion URL, when the interview has one: a link (room.js follows it by
 * itself after a few seconds). In a template the address is filled in by room.js from the answer
 * that ended the interview.
 */
function redirect(session: SessionDto, url: string | null): string {
  const l = session.language;
  return `<p class="redirect"${url ? '' : ' hidden'}>${tx(l, 'room.redirect.text')} <a class="redirect__link" href="${url ? escapeHtml(url) : ''}" rel="noreferrer">${tx(l, 'room.redirect.link')}</a></p>`;
}

function completed(session: SessionDto, url: string | null = session.redirectUrl): string {
  const l = session.language;
  return `<section class="card card--done" role="status">
  <h2>${tx(l, 'room.completed.title')}</h2>
  <p>${tx(l, 'room.completed.text', { product: session.productName })}</p>
  ${redirect(session, url)}
</section>`;
}

function abandoned(session: SessionDto, url: string | null = session.redirectUrl): string {
  const l = session.language;
  return `<section class="card card--done" role="status">
  <h2>${tx(l, 'room.abandoned.title')}</h2>
  <p>${tx(l, 'room.abandoned.text', { product: session.productName })}</p>
  ${redirect(session, url)}
</section>`;
}

function expired(session: SessionDto): string {
  const l = session.language;
  return `<section class="card card--expired" role="status">
  <h2>${tx(l, 'room.expired.title')}</h2>
  <p>${tx(l, 'room.expired.text', {}, { date: timeIn(new Date(session.expires_on), l) })}</p>
</section>`;
}

/** A link the research team withdrew (invites/revokeOne). */
function revoked(session: SessionDto): string {
  const l = session.language;
  return `<section class="card card--expired" role="status">
  <h2>${tx(l, 'room.revoked.title')}</h2>
  <p>${tx(l, 'room.revoked.text')}</p>
</section>`;
}

/** An open link's invite that was screened out or found its quota full: a message, and the panel's redirect when there is one. */
function outcome(kind: 'screenedout' | 'overquota') {
  return (session: SessionDto) => `<section class="card card--expired" role="status">
  <h2>${tx(session.language, `open.${kind}.title`)}</h2>
  <p>${tx(session.language, `open.${kind}.text`)}</p>
  ${redirect(session, session.redirectUrl)}
</section>`;
}

/** The page of a link, in the state of its invite, in the room's language. */
export function renderRoom(session: SessionDto): string {
  const STATES: Record<InviteStatus, (session: SessionDto) => string> = {
    pending,
    started,
    completed,
    abandoned,
    expired,
    revoked,
    screenedout: outcome('screenedout'),
    overquota: outcome('overquota'),
  };
  const content = STATES[session.status](session);
  // The finished states as templates, for room.js to show without a reload (their redirect filled in then).
  const templates = `<template id="completed-template">${completed(session, null)}</template>
<template id="abandoned-template">${abandoned(session, null)}</template>
<template id="expired-template">${expired(session)}</template>
<template id="revoked-template">${revoked(session)}</template>
<script type="application/json" id="room-messages">${scriptMessages(session.language)}</script>`;
  return layout(
    `${session.publicTitle} · ${session.productName}`,
    `<main class="room" data-status="${escapeHtml(session.status)}" data-mode="${session.mode === 'voice' ? 'voice' : 'text'}">
${header(session)}
${content}
</main>
${templates}`,
    session.language,
    session.productImage,
  );
}

/** What a person is told when the page itself fails, by status: plain words, never the API's message. */
const PAGE_ERRORS: Record<number, string> = { 400: 'badRequest', 404: 'notFound', 429: 'tooMany', 503: 'unavailable' };

/** The page for a link that leads nowhere (or an error while reading it): no detail, never the link. */
export function renderRoomError(status: number, language = 'en'): string {
  const kind = PAGE_ERRORS[status] ?? 'generic';
  const title = translate(language, `room.error.${kind === 'badRequest' ? 'generic' : kind}.title`);
  const text = translate(language, `room.error.${kind}.text`);
  return layout(
    title,
    `<main class="room room--error">
<section class="card card--expired" role="status">
  <h1 class="card__title">${escapeHtml(title)}</h1>
  <p>${escapeHtml(text)}</p>
</section>
</main>`,
    language,
  );
}
