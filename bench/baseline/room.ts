/**
 * room/reply for both baselines (server.ts, nest-bare.ts): what RoomService.reply and
 * InviteLifecycleService.append do for an answer that does not end the interview, without Nest,
 * TypeORM or class-validator, on work.ts's pool:
 *
 *   1. one request per link at a time in this process (KeyedQueue, as the service's queue);
 *   2. ROOM_INVITE_BY_ID: the invite with its interview and product; 409 unless started, and a link
 *      past expires_on is expired first;
 *   3. the answer redacted when the interview says so, and the built-in agent's next turn
 *      (DefaultInterviewer from src/, which loads no Nest either) with the interview's progress;
 *   4. the transcript's limits (turns, bytes);
 *   5. one transaction: INVITE_STATE_FOR_UPDATE + ' FOR UPDATE', expiry, status and transcript length
 *      checked again, then the service's UPDATE of updated_at and conversation; composed again (at most
 *      3 times) when another process changed the transcript in between.
 *
 * Not done: the answer that ends the interview (the service completes the invite and records the
 * interviewee's profile in the same transaction) answers 501, and an interview whose agent is not the
 * built-in one answers 501; the benchmark reaches neither. Validation is hand-written, as in work.ts.
 */
import { KeyedQueue } from '../../src/common/keyed-queue';
import { rawDate, sqlDate } from '../../src/database/column-types';
import { DefaultInterviewer, scriptProgress } from '../../src/interviewers/default-interviewer';
import type { InterviewBrief, Turn } from '../../src/interviewers/interviewer-agent';
import { answerSentiment } from '../../src/profiles/sentiment';
import { BUILT_IN_INTERVIEWER } from '../../src/interviewers/interviewer.limits';
import type { InviteStatus } from '../../src/domain/invite-status';
import { INVITE_LIMITS } from '../../src/domain/invite.limits';
import { INVITE_STATE_FOR_UPDATE, ROOM_INVITE_BY_ID, RoomInviteRow } from './sql';
import { redactPII } from '../../src/redaction/redact-pii';
import { completionRedirect } from '../../src/room/redirect';
import { LINK_ID_PATTERN, ROOM_LIMITS } from '../../src/room/room.limits';
import { inTransaction } from './transaction';
import { HttpError, jsonObject, pool } from './work';
import type { RowDataPacket } from 'mysql2/promise';

const ATTEMPTS = 3;
const agent = new DefaultInterviewer();
const queue = new KeyedQueue();

const notFound = () => new HttpError(404, 'there is no interview at this link; check that you copied all of it');
const expired = () => new HttpError(409, 'this interview link has expired; ask the team that sent it for a new one');
const wrongStatus = (status: InviteStatus) => new HttpError(409, `this interview is ${status}; that needs it started`);

/** Thrown inside the transaction when another answer got in first: compose again. */
class Changed extends Error {}

const isDue = (status: InviteStatus, expiresAt: Date | string, now: Date) => (status === 'pending' || status === 'started') && rawDate(expiresAt).getTime() <= now.getTime();

async function expire(linkID: string, now: Date): Promise<void> {
  await pool.query("UPDATE invites SET updated_at = ?, status = 'expired' WHERE link_id = ? AND status IN ('pending', 'started')", [sqlDate(now), linkID]);
}

/** The body {content}: what ReplyDto checks. */
function answerOf(rawBody: unknown): Turn {
  const body = jsonObject(rawBody);
  for (const key of Object.keys(body)) if (key !== 'content') throw new HttpError(400, `unknown field "${key}" is not allowed`);
  const content = body.content;
  if (content === undefined || content === null) throw new HttpError(400, 'content is required');
  if (typeof content !== 'string') throw new HttpError(400, 'content must be a string');
  const max = ROOM_LIMITS.answer;
  if (content.length < 1 || content.length > max) throw new HttpError(400, `content must be 1 to ${max} characters long`);
  if (content.includes('\0') || !content.isWellFormed()) throw new HttpError(400, 'content must not contain NUL characters or unpaired surrogates');
  if (!/\S/.test(content)) throw new HttpError(400, 'content must contain a non-whitespace character');
  return { role: 'interviewee', content };
}

/** What a reply answers: the service's ReplyResultDto for an interview that goes on. */
interface ReplyResult {
  status: 'started';
  turns: Turn[];
  progress: { asked: number; total: number };
  redirectUrl: string | null;
}

async function compose(linkID: string, given: Turn): Promise<ReplyResult> {
  const now = new Date();
  const [rows] = await pool.query<RowDataPacket[]>(ROOM_INVITE_BY_ID, [linkID]);
  const row = rows[0] as RoomInviteRow | undefined;
  if (!row) throw notFound();
  if (isDue(row.status, row.expiresAt, now)) {
    await expire(linkID, now);
    throw expired();
  }
  if (row.status !== 'started') throw wrongStatus(row.status);
  if (row.interviewer !== BUILT_IN_INTERVIEWER) throw new HttpError(501, 'the baseline runs the built-in agent only');
  const answer: Turn = Number(row.redactPII) ? { role: 'interviewee', content: redactPII(given.content) } : given;
  const before = JSON.parse(row.conversation) as Turn[];
  const userInfo = row.userInfo === null ? null : (JSON.parse(row.userInfo) as { name?: string | null });
  const brief: InterviewBrief = {
    productName: row.productName,
    productDesc: row.productDesc,
    interviewName: row.interviewName,
    language: row.language ?? 'en',
    guidelines: row.guidelines,
    intervieweeName: userInfo?.name ?? null,
  };
  const next = await agent.next(brief, [...before, answer]);
  if (next.done) throw new HttpError(501, 'completing an interview is not part of the baseline');
  const question: Turn = { role: 'interviewer', content: next.message };
  const conversation = JSON.stringify([...before, answer, question]);
  // The per-turn data the service keeps beside the transcript: when, and the question asked.
  const at = now.toISOString();
  const turnMeta = JSON.stringify([
    ...(row.turnMeta === null ? [] : (JSON.parse(row.turnMeta) as unknown[])),
    { at, questionIndex: null, sentiment: answerSentiment(answer.content, row.language) },
    { at, questionIndex: next.questionIndex },
  ]);
  if (before.length + 2 > INVITE_LIMITS.turns || Buffer.byteLength(conversation, 'utf8') > INVITE_LIMITS.transcriptBytes) {
    throw new HttpError(409, "this interview's transcript is full");
  }

  const expiredNow = await inTransaction(pool, async (conn) => {
    const [states] = await conn.query<RowDataPacket[]>(INVITE_STATE_FOR_UPDATE + ' FOR UPDATE', [linkID]);
    const state = states[0] as { status: InviteStatus; conversation: string; expiresAt: Date | string } | undefined;
    if (!state) throw notFound();
    if (isDue(state.status, state.expiresAt, now)) {
      await conn.query("UPDATE invites SET updated_at = ?, status = 'expired' WHERE link_id = ?", [sqlDate(now), linkID]);
      return true;
    }
    if (state.status !== 'started') throw wrongStatus(state.status);
    if ((JSON.parse(state.conversation) as unknown[]).length !== before.length) throw new Changed();
    const answerCount = [...before, answer].filter((turn) => turn.role === 'interviewee').length;
    await conn.query('UPDATE invites SET updated_at = ?, conversation = ?, turn_meta = ?, answer_count = ? WHERE link_id = ?', [sqlDate(now), conversation, turnMeta, answerCount, linkID]);
    return false;
  });
  if (expiredNow) throw expired();
  const answers = [...before, answer].filter((turn) => turn.role === 'interviewee').map((turn) => turn.content);
  return {
    status: 'started',
    turns: [answer, question],
    progress: scriptProgress(row.guidelines, row.productName, answers),
    redirectUrl: completionRedirect(row.completionRedirectUrl, 'started'),
  };
}

/** POST /i/{linkID}/reply: the answer and the agent's next turn, as the service answers them. */
export async function roomReply(linkID: string, rawBody: unknown): Promise<ReplyResult> {
  if (!LINK_ID_PATTERN.test(linkID)) throw notFound();
  const answer = answerOf(rawBody);
  return queue.run(linkID, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await compose(linkID, answer);
      } catch (error) {
        if (!(error instanceof Changed)) throw error;
        if (attempt >= ATTEMPTS) throw new HttpError(409, 'another answer to this interview is being handled; try again');
      }
    }
  });
}
