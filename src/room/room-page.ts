import type { ConversationTurn } from '../invites/invite.entity';
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

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const ROLE_LABELS: Record<string, string> = { interviewer: 'Interviewer', interviewee: 'You', system: 'Note' };

/** One transcript turn; room.js builds the same markup for turns that arrive later. */
export function renderTurn(turn: ConversationTurn): string {
  const role = ROLE_LABELS[turn.role] ? turn.role : 'system';
  return `<li class="turn turn--${role}"><span class="turn__who">${ROLE_LABELS[role]}</span><p class="turn__text">${escapeHtml(turn.content)}</p></li>`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
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
  <p id="typing" class="typing" hidden><span class="typing__dots" aria-hidden="true"></span>The interviewer is typing…</p>
</section>
<form id="reply-form" class="composer" novalidate>
  <label for="answer">Your answer</label>
  <textarea id="answer" name="content" rows="3" required maxlength="${ROOM_LIMITS.answer}" autofocus></textarea>
  <p id="form-error" class="error" role="alert" hidden></p>
  <div class="composer__actions">
    <button type="submit" class="button">Send</button>
    <button type="button" id="end" class="button button--quiet">End interview</button>
  </div>
</form>`;
}

const COMPLETED = `<section class="card card--done" role="status">
  <h2>Thank you!</h2>
  <p>Your interview is complete and your answers have reached the team. You can close this page.</p>
</section>`;

function expired(session: SessionDto): string {
  const when = new Date(session.expires_on).toUTCString().replace(/:\d\d GMT$/, ' UTC');
  return `<section class="card card--expired" role="status">
  <h2>This link has expired</h2>
  <p>This interview link expired on ${escapeHtml(when)}. If you would still like to take part, ask the team that sent it for a new link.</p>
</section>`;
}

/** The page of a link, in the state of its invite. */
export function renderRoom(session: SessionDto): string {
  const content =
    session.status === 'pending' ? pending(session) : session.status === 'started' ? started(session) : session.status === 'completed' ? COMPLETED : expired(session);
  // The finished states as templates, for room.js to show without a reload.
  const templates = `<template id="completed-template">${COMPLETED}</template>
<template id="expired-template">${expired(session)}</template>`;
  return layout(
    `${session.interviewName} · ${session.productName}`,
    `<main class="room" data-status="${session.status}">
${header(session)}
${content}
</main>
${templates}`,
  );
}

/** The page for a link that leads nowhere (or an error while reading it): no detail, never the link. */
export function renderRoomError(status: number, message: string): string {
  const title = status === 404 ? 'This link does not lead to an interview' : status === 429 ? 'Too many requests' : 'Something went wrong';
  return layout(
    title,
    `<main class="room">
<section class="card card--expired" role="status">
  <h2>${escapeHtml(title)}</h2>
  <p>${escapeHtml(message)}</p>
</section>
</main>`,
  );
}
