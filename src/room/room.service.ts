import { Injectable, Logger } from '@nestjs/common';
import { KeyedQueue } from '../common/keyed-queue';
import { redactPII } from '../redaction/redact-pii';
import { InterviewBrief, InterviewerAgent } from '../interviewers/interviewer-agent';
import { InterviewersService } from '../interviewers/interviewers.service';
import { InviteLifecycleService, NewTurn, RoomInvite, hasAnswers } from '../invites/invite-lifecycle.service';
import { OPEN_STATUSES } from '../invites/invite-status';
import { InviteChangedException, InviteExpiredException, InviteNotFoundException, InviteStateException } from '../invites/invites.errors';
import { ReplyDto, StartInterviewDto } from './dto/room-input.dto';
import { ReplyResultDto, SessionDto } from './dto/session.dto';
import { RoomNotFoundException } from './room.errors';
import { RoomConfig } from './room.config';

/** The language of the room's own texts (until it speaks others). */
const ROOM_LANGUAGE = 'en';

/** A change that raced another one on the same invite (another process) is composed again this often. */
const ATTEMPTS = 3;

/**
 * The interview room: what a link shows, and the interviewee's start, answers and end, each turned into
 * an invite change (InviteLifecycleService) with the interview's interviewer agent taking its turns.
 * Requests for one link run one at a time in this process (the agent's turn depends on the transcript
 * before it); across processes the lifecycle's version check makes a racing request compose again.
 */
@Injectable()
export class RoomService {
  private readonly logger = new Logger(RoomService.name);
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly lifecycle: InviteLifecycleService,
    private readonly interviewers: InterviewersService,
    private readonly config: RoomConfig,
  ) {}

  async session(linkID: string): Promise<SessionDto> {
    return this.toSession(await this.read(linkID));
  }

  async start(linkID: string, dto: StartInterviewDto): Promise<SessionDto> {
    return this.serialized(linkID, async () => {
      const invite = await this.readFor(linkID, 'pending');
      const now = new Date();
      const userInfo = { email: dto.email, name: dto.name, occupation: dto.occupation ?? null };
      // What was agreed to, and when, is the transcript's first turn: the team can show it.
      const consent: NewTurn = { role: 'system', content: `Consent given ${now.toISOString()}: ${this.config.consentText}`, questionIndex: null };
      const opening = await this.agentOf(invite).next(this.brief(invite, userInfo.name), [consent]);
      const turns: NewTurn[] = [consent, { role: 'interviewer', content: opening.message, questionIndex: opening.questionIndex }];
      // The room speaks English; the interview's language is recorded with the invite from its start.
      await this.lifecycle.start(invite, userInfo, turns, ROOM_LANGUAGE, now);
      return this.toSession({ ...invite, status: 'started', conversation: turns.map(({ role, content }) => ({ role, content })) });
    });
  }

  async reply(linkID: string, dto: ReplyDto): Promise<ReplyResultDto> {
    return this.serialized(linkID, async () => {
      const invite = await this.readFor(linkID, 'started');
      // Redacted here, first: the original is never stored, logged or sent to the agent.
      const answer = { role: 'interviewee' as const, content: invite.redactPII ? redactPII(dto.content) : dto.content };
      const agent = this.agentOf(invite);
      const brief = this.brief(invite, invite.userInfo?.name ?? null);
      const transcript = [...invite.conversation, answer];
      const next = await agent.next(brief, transcript);
      const question = { role: 'interviewer' as const, content: next.message };
      const summary = next.done ? await agent.summarize(brief, [...transcript, question]) : null;
      await this.lifecycle.append(invite, [{ ...answer, questionIndex: null }, { ...question, questionIndex: next.questionIndex }], next.done ? { summary } : null);
      return { status: next.done ? 'completed' : 'started', turns: [answer, question] };
    });
  }

  /**
   * The interviewee ends the interview early; the transcript stays as it is. With an answer it is
   * completed; before any, abandoned (no profile is made or touched).
   */
  async end(linkID: string): Promise<SessionDto> {
    return this.serialized(linkID, async () => {
      const invite = await this.readFor(linkID, 'started');
      if (!hasAnswers(invite.conversation)) {
        await this.lifecycle.abandon(invite);
        return this.toSession({ ...invite, status: 'abandoned' });
      }
      const summary = await this.agentOf(invite).summarize(this.brief(invite, invite.userInfo?.name ?? null), invite.conversation);
      await this.lifecycle.complete(invite, summary);
      return this.toSession({ ...invite, status: 'completed' });
    });
  }

  /** The invite behind a link, expired first when it is past its time; the room's own 404 otherwise. */
  async read(linkID: string): Promise<RoomInvite> {
    try {
      return await this.lifecycle.read(linkID);
    } catch (error) {
      throw error instanceof InviteNotFoundException ? new RoomNotFoundException() : error;
    }
  }

  /** What the link shows; once the interview is over, nothing of it (a link that leaks later). */
  toSession(invite: Pick<RoomInvite, 'status' | 'interviewName' | 'productName' | 'productImage' | 'conversation' | 'expiresAt'>): SessionDto {
    return {
      status: invite.status,
      interviewName: invite.interviewName,
      productName: invite.productName,
      productImage: invite.productImage,
      consentText: this.config.consentText,
      conversation: OPEN_STATUSES.includes(invite.status) ? invite.conversation : [],
      expires_on: invite.expiresAt.toISOString(),
    };
  }

  /** The invite in the status a request needs: 409 naming the status it is in, or saying it expired. */
  private async readFor(linkID: string, needed: 'pending' | 'started'): Promise<RoomInvite> {
    const invite = await this.read(linkID);
    if (invite.status === 'expired') throw new InviteExpiredException();
    if (invite.status !== needed) throw new InviteStateException(invite.status, needed);
    return invite;
  }

  /** One request of a link at a time here, and again from the top when another process got in first. */
  private serialized<T>(linkID: string, task: () => Promise<T>): Promise<T> {
    return this.queue.run(linkID, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await task();
        } catch (error) {
          if (!(error instanceof InviteChangedException) || attempt >= ATTEMPTS) throw error;
        }
      }
    });
  }

  /**
   * The interview's agent. One that has since been removed from INTERVIEWER_AGENTS falls back to the
   * default agent, so that links already sent keep working.
   */
  private agentOf(invite: RoomInvite): InterviewerAgent {
    const agent = this.interviewers.get(invite.interviewer);
    if (agent) return agent;
    this.logger.warn({ msg: 'interviewer agent not configured; using the default', interviewer: invite.interviewer, fallback: this.interviewers.defaultName });
    return this.interviewers.get(this.interviewers.defaultName)!;
  }

  /** What the agent is told: the product and the interview, never the organization or the email. */
  private brief(invite: RoomInvite, intervieweeName: string | null): InterviewBrief {
    return {
      productName: invite.productName,
      productDesc: invite.productDesc,
      interviewName: invite.interviewName,
      guidelines: invite.guidelines,
      intervieweeName,
    };
  }
}
