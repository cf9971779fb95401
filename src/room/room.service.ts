import type { ConfigType } from '@nestjs/config';
import { Injectable, Logger, StreamableFile, Inject } from '@nestjs/common';
import { KeyedQueue } from '../common/keyed-queue';
import { inSpan } from '../common/spans';
import { AgentTurn, InterviewBrief, InterviewerAgent } from '../interviewers/interviewer-agent';
import { redactPII } from '../redaction/redact-pii';
import { InterviewersService } from '../interviewers/interviewers.service';
import { InviteLifecycleService, NewTurn, RoomInvite, hasAnswers } from '../invites/invite-lifecycle.service';
import { OPEN_STATUSES } from '../domain/invite-status';
import { InviteChangedException, InviteExpiredException, InviteNotFoundException, InviteStateException } from '../invites/invites.errors';
import { ReplyDto, StartInterviewDto } from './dto/room-input.dto';
import { ProgressDto, ReplyResultDto, SessionDto } from './dto/session.dto';
import { NoSpeechHereException, NotVoiceInterviewException, RoomNotFoundException } from './room.errors';
import { roomConfig } from './room.config';
import { directionOf, interviewLanguageChoices, isLanguage, Language, negotiateLanguage } from '../languages/languages';
import { translate } from '../languages/messages';
import { scriptProgress, translationOf } from '../interviewers/default-interviewer';
import { Metrics } from '../metrics/metrics.service';
import { completionRedirect } from './redirect';
import { Recording, VoiceService } from '../voice/voice.service';
import type { KeptAudio } from '../invites/invite-audio.repository';
import type { EntityManager } from 'typeorm';
import { RecruitmentService, inviteRedirect } from '../recruitment/recruitment.service';
import { QualityService } from '../recruitment/quality.service';
import type { AnswerSignals } from '../recruitment/quality';

/** What a request says about the language its reader wants: the link's `?lang=` and the browser's Accept-Language. */
export interface LanguageHints {
  query?: unknown;
  acceptLanguage?: string | null;
}

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
    @Inject(roomConfig.KEY) private readonly config: ConfigType<typeof roomConfig>,
    private readonly metrics: Metrics,
    private readonly voice: VoiceService,
    private readonly recruitment: RecruitmentService,
    private readonly quality: QualityService,
  ) {}

  async session(linkID: string, hints: LanguageHints = {}): Promise<SessionDto> {
    return this.toSession(await this.read(linkID), hints);
  }

  async start(linkID: string, dto: StartInterviewDto, hints: LanguageHints = {}): Promise<SessionDto> {
    return this.serialized(linkID, async () => {
      const invite = await this.readFor(linkID, 'pending');
      const now = new Date();
      const userInfo = { email: dto.email, name: dto.name, occupation: dto.occupation ?? null };
      // The interview's own language wins; else what the page showed; else what the request asks for.
      const language = isLanguage(invite.interviewLanguage) ? invite.interviewLanguage : isLanguage(dto.language) ? dto.language : this.languageOf(invite, hints);
      // What was agreed to, and when, is the transcript's first turn: the team can show it. The prefix
      // stays English (it is for the research team); the text is the one the interviewee was shown.
      const consent: NewTurn = { role: 'system', content: `Consent given ${now.toISOString()}: ${this.consentOf(invite, language)}`, questionIndex: null };
      const opening = await this.turn(invite, this.brief(invite, userInfo.name, language), [consent]);
      const turns: NewTurn[] = [consent, { role: 'interviewer', content: opening.message, questionIndex: opening.questionIndex }];
      // From here on the language is fixed: recorded with the invite, whatever later requests ask for.
      // An open link's invite takes its place now (checked again under the recruitment's lock).
      const admit = invite.source === 'open' ? (db: EntityManager) => this.recruitment.admitStart(db, invite, now) : undefined;
      let quality = invite.quality;
      const judge = async (db: EntityManager, email: string | null) => (quality = await this.quality.atStart(db, invite, email));
      const outcome = await this.lifecycle.start(invite, userInfo, turns, language, now, { admit, quality: judge });
      if (outcome === 'overquota') return this.toSession({ ...invite, status: 'overquota' }, hints);
      return this.toSession({ ...invite, quality, status: 'started', language, conversation: turns.map(({ role, content }) => ({ role, content })) }, hints);
    });
  }

  async reply(linkID: string, dto: ReplyDto): Promise<ReplyResultDto> {
    const signals = { typedChars: dto.typedChars, pastedChars: dto.pastedChars, durationMs: dto.durationMs };
    return this.serialized(linkID, () => this.answer(linkID, dto.content, null, signals));
  }

  /**
   * A spoken answer: the recording is checked (type, size, length), transcribed in the invite's language
   * outside the link's queue (a transcriber may take seconds, and a racing answer must not transcribe
   * twice), then stored exactly as `reply` stores typed text, its recording kept when the interview keeps
   * audio. When the transcriber fails nothing is stored (503).
   */
  async answerAudio(linkID: string, recording: Recording): Promise<ReplyResultDto> {
    this.voice.checkRecording(recording);
    const invite = await this.readFor(linkID, 'started');
    if (this.modeOf(invite) !== 'voice') throw new NotVoiceInterviewException();
    const text = await this.voice.transcribe(recording, this.languageOf(invite, {}));
    return this.serialized(linkID, () => this.answer(linkID, text, { contentType: recording.type, bytes: recording.bytes }));
  }

  /**
   * An interviewer turn as speech, from the speech server: only turns of the interviewer, of a voice
   * interview that is started or completed, and only with a speaker; 404 otherwise, saying nothing of the link.
   */
  async speech(linkID: string, turnIndex: number): Promise<StreamableFile> {
    if (!this.voice.canSpeak) throw new NoSpeechHereException();
    const invite = await this.read(linkID);
    const turn = invite.conversation[turnIndex];
    if (!['started', 'completed'].includes(invite.status) || this.modeOf(invite) !== 'voice' || turn?.role !== 'interviewer') throw new NoSpeechHereException();
    const { audio, contentType } = await this.voice.speak(turn.content, this.languageOf(invite, {}));
    return new StreamableFile(audio, { type: contentType, length: audio.length });
  }

  /**
   * One answer, typed or transcribed: redacted first when the interview asks for it (the original is
   * never stored, logged or sent to the agent), then the agent's next turn, both stored in one
   * transaction with the recording when one is to be kept.
   */
  private async answer(linkID: string, content: string, recording: KeptAudio | null, signals: AnswerSignals = {}): Promise<ReplyResultDto> {
    const invite = await this.readFor(linkID, 'started');
    const answer = { role: 'interviewee' as const, content: invite.redactPII ? redactPII(content) : content };
    const agent = this.agentOf(invite);
    const brief = this.brief(invite, invite.userInfo?.name ?? null, this.languageOf(invite, {}));
    const transcript = [...invite.conversation, answer];
    const next = await this.turn(invite, brief, transcript);
    const question = { role: 'interviewer' as const, content: next.message };
    const summary = next.done ? await agent.summarize(brief, [...transcript, question]) : null;
    // A recording holds what redaction takes out: never kept for a redacting interview (addOne/updateOne refuse the pair too).
    const kept = recording && invite.keepAudio && !invite.redactPII ? recording : null;
    let quality = invite.quality;
    // Judged in the answer's transaction (another invite's duplicate is read there); the signals go no further.
    // The question answered: the one the last interviewer turn asked or followed up.
    const asked = invite.turnMeta.findLast((_meta, i) => invite.conversation[i]?.role === 'interviewer')?.questionIndex ?? null;
    const judge = async (db: EntityManager) => (quality = await this.quality.afterAnswer(db, invite, answer.content, asked, transcript, signals));
    await this.lifecycle.append(invite, [{ ...answer, questionIndex: null }, { ...question, questionIndex: next.questionIndex }], next.done ? { summary } : null, new Date(), kept, judge);
    const status = next.done ? 'completed' : 'started';
    const after = { ...invite, quality, status: status as RoomInvite['status'], conversation: [...transcript, question] };
    return { status, turns: [answer, question], progress: this.progressOf(after), redirectUrl: this.redirectOf(after) };
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
        return this.toSession({ ...invite, status: 'abandoned' }, {});
      }
      const summary = await this.agentOf(invite).summarize(this.brief(invite, invite.userInfo?.name ?? null, this.languageOf(invite, {})), invite.conversation);
      await this.lifecycle.complete(invite, summary);
      return this.toSession({ ...invite, status: 'completed' }, {});
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
  toSession(invite: RoomInvite, hints: LanguageHints): SessionDto {
    const language = this.languageOf(invite, hints);
    const mode = this.modeOf(invite);
    return {
      status: invite.status,
      publicTitle: invite.publicTitle || invite.interviewName,
      language,
      direction: directionOf(language),
      // Once started the language is fixed: nothing to choose.
      languages: invite.status === 'pending' ? interviewLanguageChoices(invite.interviewLanguage, invite.translations) : [],
      productName: invite.productName,
      productImage: invite.productImage,
      consentText: this.consentOf(invite, language),
      progress: this.progressOf(invite),
      redirectUrl: this.redirectOf(invite),
      mode,
      questionsSpokenBy: mode === 'voice' ? (this.voice.canSpeak ? 'server' : 'browser') : null,
      keepAudio: mode === 'voice' && invite.keepAudio && !invite.redactPII,
      conversation: OPEN_STATUSES.includes(invite.status) ? invite.conversation : [],
      expires_on: invite.expiresAt.toISOString(),
    };
  }

  /**
   * Where a finished interviewee goes: an open link's invite to its recruitment's redirect for the
   * outcome (a flagged one to `quality`), with the participant id filled in; otherwise the interview's
   * completion URL with the status.
   */
  private redirectOf(invite: Pick<RoomInvite, 'status' | 'quality' | 'source' | 'participantID' | 'passthrough' | 'recruitmentRedirects' | 'completionRedirectUrl'>): string | null {
    const flagged = (invite.quality?.flags.length ?? 0) > 0;
    if (invite.source === 'open' && invite.recruitmentRedirects) {
      const url = inviteRedirect(invite.recruitmentRedirects, { status: invite.status, flagged, participantID: invite.participantID, passthrough: invite.passthrough });
      if (url) return url;
    }
    // A flagged invite of a panel that set a quality redirect goes there, whichever link it came by.
    if (invite.status === 'completed' && flagged && invite.recruitmentRedirects?.quality) {
      return inviteRedirect(invite.recruitmentRedirects, { status: invite.status, flagged, participantID: invite.participantID, passthrough: invite.passthrough });
    }
    return completionRedirect(invite.completionRedirectUrl, invite.status);
  }

  /**
   * The room's language: the one recorded at the start; before it (or for a link that expired
   * unstarted), the interview's, else the best match of `?lang=`, then Accept-Language, else English.
   */
  languageOf(invite: Pick<RoomInvite, 'language' | 'interviewLanguage'>, hints: LanguageHints): Language {
    if (isLanguage(invite.language)) return invite.language;
    return negotiateLanguage(invite.interviewLanguage, typeof hints.query === 'string' ? hints.query : null, hints.acceptLanguage);
  }

  /**
   * The room's mode: a voice interview is held by voice while the service has a transcriber; one whose
   * transcriber has since been removed from the configuration is held in text, so that links already sent keep working.
   */
  private modeOf(invite: Pick<RoomInvite, 'mode'>): 'text' | 'voice' {
    return invite.mode === 'voice' && this.voice.canTranscribe ? 'voice' : 'text';
  }

  /** The interview's consent text, else the service's CONSENT_TEXT, else the default in the room's language. */
  private consentOf(invite: Pick<RoomInvite, 'consentText'>, language: Language): string {
    return invite.consentText || this.config.consentText || translate(language, 'room.consent.default');
  }

  /** "Question k of n": only the built-in agent's script says where it stands; an LLM agent's does not. */
  private progressOf(invite: Pick<RoomInvite, 'status' | 'interviewer' | 'guidelines' | 'productName' | 'conversation'>): ProgressDto | null {
    if (this.agentOf(invite).kind !== 'builtin') return null;
    const answers = invite.conversation.filter((turn) => turn.role === 'interviewee').map((turn) => turn.content);
    const progress = scriptProgress(invite.guidelines, invite.productName, answers);
    return invite.status === 'pending' ? { asked: 0, total: progress.total } : progress;
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

  /** The agent's next turn, timed and counted by the agent's name. */
  private async turn(invite: RoomInvite, brief: InterviewBrief, transcript: Parameters<InterviewerAgent['next']>[1]): Promise<AgentTurn> {
    const agent = this.agentOf(invite);
    const name = this.interviewers.get(invite.interviewer) ? invite.interviewer : this.interviewers.defaultName;
    const started = performance.now();
    const next = await inSpan('interviewer.turn', { 'irs.agent': name, 'irs.agent.kind': agent.kind }, () => agent.next(brief, transcript));
    this.metrics.agentTurn(name, (performance.now() - started) / 1000);
    this.metrics.roomTurn(name);
    return next;
  }

  /**
   * The interview's agent. One that has since been removed from INTERVIEWER_AGENTS falls back to the
   * default agent, so that links already sent keep working.
   */
  private agentOf(invite: Pick<RoomInvite, 'interviewer'>): InterviewerAgent {
    const agent = this.interviewers.get(invite.interviewer);
    if (agent) return agent;
    this.logger.warn({ msg: 'interviewer agent not configured; using the default', interviewer: invite.interviewer, fallback: this.interviewers.defaultName });
    return this.interviewers.get(this.interviewers.defaultName)!;
  }

  /** What the agent is told: the product and the interview, never the organization or the email. */
  private brief(invite: RoomInvite, intervieweeName: string | null, language: Language): InterviewBrief {
    return {
      language,
      productName: invite.productName,
      productDesc: invite.productDesc,
      interviewName: invite.interviewName,
      guidelines: invite.guidelines,
      translation: translationOf(invite, language),
      intervieweeName,
    };
  }
}
