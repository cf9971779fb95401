import { escapeHtml, timeElement } from '../common/html';
import type { ConversationTurn } from '../invites/invite.entity';
import type { InviteStatus } from '../invites/invite-status';
import type { SessionDto } from './dto/session.dto';
import { ROOM_LIMITS } from './room.limits';

/**
 * The interview room as HTML: one document per state, rendered here; room.js and room.css (served by
 * the app, no CDN) take it from there. Everything that comes from data goes through escapeHtml, so a
 * transcript full of markup shows as text.
 */

/** The room's own Content-Security-Policy: nothing but its own script and style; images also from the product's host. */
export const ROOM_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: http: data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ROLE_LABELS: Record<string, string> = { interviewer: 'Interviewer', interviewee: 'You', system: 'Note' };

/** How RoomService.start records the consent: "Consent given <ISO time>: <the text shown>". */
const CONSENT_TURN = /^Consent given (\d{4}-\d\d-\d\dT[\d:.]+Z): ([\s\S]*)$/;

/**
 * One transcript turn; room.js builds the same markup for turns that arrive later. The consent record
 * reads as a line the interviewee can open to see what they agreed to, rather than as a raw timestamp.
 */
export function renderTurn(turn: ConversationTurn): string {
  const consent = turn.role === 'system' ? CONSENT_TURN.exec(turn.content) : null;
  if (consent && !Number.isNaN(Date.parse(consent[1]))) {
    return `<li class="turn turn--consent"><details><summary>You agreed to take part</summary><p class="turn__text">On ${timeElement(new Date(consent[1]))}: ${escapeHtml(consent[2])}</p></details></li>`;
  }
  const role = ROLE_LABELS[turn.role] ? turn.role : 'system';
  return `<li class="turn turn--${role}"><span class="turn__who">${ROLE_LABELS[role]}</span><p class="turn__text">${escapeHtml(turn.content)}</p></li>`;
}

function layout(title: string, body: string, icon: string | null = null): string {
  // Without an icon link the browser asks for /favicon.ico, which is not there: a 404 in every console.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
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
  const image = session.productImage ? `<img class="product__image" src="${escapeHtml(session.productImage)}" alt="" width="56" height="56">` : '';
  return `<header class="room__header">
  ${image}
  <div>
    <p class="product__name">${escapeHtml(session.productName)}</p>
    <h1 class="room__title">${escapeHtml(session.interviewName)}</h1>
  </div>
</header>`;
}

function pending(session: SessionDto): string {
  return `<section class="card" aria-labelledby="consent-title">
  <h2 id="consent-title">Before you start</h2>
  <p id="consent-text" class="consent">${escapeHtml(session.consentText)}</p>
  <form id="start-form" class="form" novalidate>
    <div class="field">
      <label for="name">Name</label>
      <input id="name" name="name" type="text" autocomplete="name" required maxlength="${ROOM_LIMITS.name}">
    </div>
    <div class="field">
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="email" required maxlength="${ROOM_LIMITS.email}">
    </div>
    <div class="field">
      <label for="occupation">Occupation <span class="optional">(optional)</span></label>
      <input id="occupation" name="occupation" type="text" autocomplete="organization-title" maxlength="${ROOM_LIMITS.occupation}">
    </div>
    <div class="check">
      <input id="consent" name="consent" type="checkbox" required aria-describedby="consent-text">
      <label for="consent">I agree to take part in this interview as described above.</label>
    </div>
    <p id="form-error" class="error" role="alert" hidden></p>
    <button type="submit" class="button">Start interview</button>
  </form>
</section>`;
}

function started(session: SessionDto): string {
  return `<section class="conversation" aria-labelledby="conversation-title">
  <h2 id="conversation-title" class="visually-hidden">Conversation</h2>
  <ol id="turns" class="turns" aria-live="polite" aria-relevant="additions">
    ${session.conversation.map(renderTurn).join('\n    ')}
  </ol>
  <p id="typing" class="typing" role="status" hidden><span class="typing__dots" aria-hidden="true"><span></span><span></span><span></span></span>The interviewer is typing…</p>
</section>
<form id="reply-form" class="composer" novalidate>
  <label for="answer" class="composer__label">Your answer</label>
  <p id="answer-hint" class="composer__hint">Enter sends; Shift+Enter starts a new line.</p>
  <textarea id="answer" name="content" rows="2" required maxlength="${ROOM_LIMITS.answer}" aria-describedby="answer-hint" autofocus></textarea>
  <p id="form-error" class="error" role="alert" hidden></p>
  <div class="composer__actions">
    <button type="submit" class="button">Send</button>
    <button type="button" id="end" class="button button--quiet">End interview</button>
  </div>
</form>`;
}

function completed(session: SessionDto): string {
  return `<section class="card card--done" role="status">
  <h2>Thank you!</h2>
  <p>Your interview is complete and your answers have reached the team behind ${escapeHtml(session.productName)}. You can close this page.</p>
</section>`;
}

function abandoned(session: SessionDto): string {
  return `<section class="card card--done" role="status">
  <h2>The interview has ended</h2>
  <p>You ended the interview before answering a question, so no answers were sent to the team behind ${escapeHtml(session.productName)}. You can close this page.</p>
</section>`;
}

function expired(session: SessionDto): string {
  return `<section class="card card--expired" role="status">
  <h2>This link has expired</h2>
  <p>This interview link expired on ${timeElement(new Date(session.expires_on))}. If you would still like to take part, ask the team that sent it for a new link.</p>
</section>`;
}

function revoked(session: SessionDto): string {
  return `<section class="card card--expired" role="status">
  <h2>This link is no longer active</h2>
  <p>The team behind ${escapeHtml(session.productName)} has withdrawn this interview link. If you think this is a mistake, ask the team that sent it.</p>
</section>`;
}

/** The page of a link, in the state of its invite. */
export function renderRoom(session: SessionDto): string {
  const STATES: Record<InviteStatus, (session: SessionDto) => string> = { pending, started, completed, abandoned, expired, revoked };
  const content = STATES[session.status](session);
  // The finished states as templates, for room.js to show without a reload.
  const templates = `<template id="completed-template">${completed(session)}</template>
<template id="abandoned-template">${abandoned(session)}</template>
<template id="expired-template">${expired(session)}</template>
<template id="revoked-template">${revoked(session)}</template>`;
  return layout(
    `${session.interviewName} · ${session.productName}`,
    `<main class="room" data-status="${session.status}">
${header(session)}
${content}
</main>
${templates}`,
    session.productImage,
  );
}

/** What a person is told when the page itself fails, by status: plain words, never the API's message. */
const PAGE_ERRORS: Record<number, [string, string]> = {
  404: [
    'This link does not lead to an interview',
    'There is no interview at this address. Check that you opened the whole link from the message you received; if it still does not work, ask the team that sent it.',
  ],
  429: ['Too many requests', 'This link has been opened too often in a short time. Please wait a minute and try again.'],
  503: ['The interview is briefly unavailable', 'We could not reach the interview just now. Please try again in a minute.'],
};

/** The page for a link that leads nowhere (or an error while reading it): no detail, never the link. */
export function renderRoomError(status: number, message: string): string {
  const [title, text] = PAGE_ERRORS[status] ?? (status >= 500 ? ['Something went wrong', 'Something went wrong on our side. Please try again in a moment.'] : ['Something went wrong', message]);
  return layout(
    title,
    `<main class="room room--error">
<section class="card card--expired" role="status">
  <h1 class="card__title">${escapeHtml(title)}</h1>
  <p>${escapeHtml(capitalize(text))}</p>
</section>
</main>`,
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
