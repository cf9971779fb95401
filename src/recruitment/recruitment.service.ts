import type { ConfigType } from '@nestjs/config';
import { Injectable, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import { isDuplicateKey } from '../database/database-errors';
import { hasEdgeWhitespace } from '../common/validation';
import { newUrlSecret } from '../common/ids';
import { transaction } from '../database/transaction';
import { InterviewsService } from '../interviews/interviews.service';
import type { ScreenerAnswer } from '../invites/invite-quality';
import type { InviteStatus } from '../domain/invite-status';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { InviteLifecycleService, RoomInvite } from '../invites/invite-lifecycle.service';
import { invitesConfig } from '../invites/invites.config';
import { InvitesRepository, ParticipantInvite } from '../invites/invites.repository';
import { RecruitmentDto, SetRecruitmentDto } from './dto/recruitment.dto';
import { Quota, Recruitment, Redirects, ScreenerQuestion } from './recruitment.entity';
import { MissingParticipantException, OpenLinkNotFoundException, RecruitmentNotFoundException, RecruitmentSettingException, StudyClosedException } from './recruitment.errors';
import { RECRUITMENT_LIMITS, REDIRECT_OUTCOMES, RESERVED_PARAMS, RedirectOutcome, SCREENER_FIELD_PREFIX } from './recruitment.limits';
import { OpenStudy, RecruitmentRepository } from './recruitment.repository';
import { PID_PLACEHOLDER, outcomeRedirect, placeholdersOnlyAfterOrigin, unknownPlaceholders } from './redirects';

const DAY_MS = 24 * 60 * 60 * 1000;
const SEGMENT_SEPARATOR = '; ';

/** What an arrival at the open link comes to. */
export type Arrival =
  /** The screener is to be shown (again, with `missing` when answers were left out). */
  | { kind: 'screener'; study: OpenStudy; missing: boolean }
  /** The person goes on: to the room (an open invite), or to the outcome's redirect, or its page when there is none. */
  | { kind: 'invite'; study: OpenStudy; linkID: string; status: InviteStatus; redirectUrl: string | null };

/** The open link's request: the query string as Express parsed it. */
export type OpenQuery = Record<string, unknown>;

/** The outcome whose redirect an invite in this status (flagged or not) is sent to; null: none (the room shows it). */
export function outcomeOf(status: InviteStatus, flagged: boolean): RedirectOutcome | null {
  switch (status) {
    case 'completed':
      return flagged ? 'quality' : 'completed';
    case 'abandoned':
      return 'abandoned';
    case 'screenedout':
      return 'screenout';
    case 'overquota':
      return 'overquota';
    default:
      return null;
  }
}

/** The participant id and passthrough values, by the names redirects use. */
function redirectValues(participantID: string | null, passthrough: Record<string, string> | null): Record<string, string> {
  return { ...(passthrough ?? {}), [PID_PLACEHOLDER]: participantID ?? '' };
}

/** The redirect of an invite's outcome, its placeholders filled; null when the outcome has none. */
export function inviteRedirect(
  redirects: Partial<Record<string, string | null>> | null,
  invite: { status: InviteStatus; flagged: boolean; participantID: string | null; passthrough: Record<string, string> | null },
): string | null {
  const outcome = outcomeOf(invite.status, invite.flagged);
  if (!redirects || !outcome) return null;
  return outcomeRedirect(redirects[outcome], redirectValues(invite.participantID, invite.passthrough));
}

/**
 * Recruitment through panels: the settings (setRecruitment / getRecruitment, visibility as the
 * interview's) and the open link's arrivals. Every decision about a place (an arrival that qualifies, an
 * open invite that starts) is taken under a lock on the interview's recruitment row, in the transaction
 * that writes the invite: with several processes on MySQL/MariaDB too, a quota cell never holds more
 * than its max.
 */
@Injectable()
export class RecruitmentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly recruitments: RecruitmentRepository,
    private readonly interviews: InterviewsService,
    private readonly invites: InvitesRepository,
    private readonly lifecycle: InviteLifecycleService,
    @Inject(invitesConfig.KEY) private readonly inviteSettings: ConfigType<typeof invitesConfig>,
  ) {}

  async set(dto: SetRecruitmentDto, principal: Principal): Promise<RecruitmentDto> {
    const { interview } = await this.interviews.requireVisible(principal, dto.interviewID);
    const recruitment = checkedSettings(dto, interview.interviewID);
    const saved = await transaction(this.dataSource, (db) => this.recruitments.save(recruitment, db));
    return this.toDto(saved);
  }

  async get(interviewID: string, principal: Principal): Promise<RecruitmentDto> {
    const { interview } = await this.interviews.requireVisible(principal, interviewID);
    const recruitment = await this.recruitments.find(interview.interviewID);
    if (!recruitment) throw new RecruitmentNotFoundException(interview.interviewID);
    return this.toDto(recruitment);
  }

  /** The study behind an open link: 404 when there is none, 410 when it is closed. */
  async study(openID: string): Promise<OpenStudy> {
    const study = await this.recruitments.findOpen(openID);
    if (!study) throw new OpenLinkNotFoundException();
    if (!study.recruitment.open) throw new StudyClosedException();
    return study;
  }

  /**
   * A person arrives at the open link. The same participant again goes where their invite stands; a new
   * one answers the screener first (when there is one), then is screened out, over quota, or given an
   * invite and sent to its room.
   */
  async arrive(openID: string, query: OpenQuery, now = new Date()): Promise<Arrival> {
    const study = await this.study(openID);
    const { recruitment } = study;
    const participantID = participantOf(query, recruitment.participantParam);
    const known = await this.invites.findByParticipant(recruitment.interviewID, participantID);
    if (known) return this.known(study, participantID, known);

    let answers: ScreenerAnswer[] = [];
    if (recruitment.screener.length > 0) {
      if (query[`${SCREENER_FIELD_PREFIX}screened`] === undefined) return { kind: 'screener', study, missing: false };
      const read = screenerAnswers(recruitment.screener, query);
      if (!read) return { kind: 'screener', study, missing: true };
      answers = read;
    }
    const qualifies = recruitment.screener.every((q) => {
      const chosen = answers.find((a) => a.screenerID === q.screenerID)?.options ?? [];
      return q.options.some((o) => o.qualifies && chosen.includes(o.option));
    });
    const cells = quotaCellsOf(recruitment.quotas, answers);
    const passthrough = passthroughOf(query, recruitment.passthrough);
    const linkID = newUrlSecret();
    try {
      const status = await this.lifecycle.openInvite(
        {
          linkID,
          interviewID: recruitment.interviewID,
          productID: study.productID,
          orgID: study.orgID,
          participantID,
          passthrough,
          screener: answers,
          segment: segmentOf(answers),
          quotaCells: cells.length > 0 ? `|${cells.join('|')}|` : null,
          createdAt: now,
          expiresAt: new Date(now.getTime() + this.inviteSettings.inviteTtlDays * DAY_MS),
        },
        async (db) => {
          if (!qualifies) return 'screenedout';
          return (await this.placeFree(db, recruitment.interviewID, cells, now, null)) ? 'pending' : 'overquota';
        },
      );
      return { kind: 'invite', study, linkID, status, redirectUrl: inviteRedirect(recruitment.redirects, { status, flagged: false, participantID, passthrough }) };
    } catch (error) {
      // The same participant arrived twice at once: the other arrival's invite is theirs.
      if (!isDuplicateKey(error)) throw error;
      const winner = await this.invites.findByParticipant(recruitment.interviewID, participantID);
      if (!winner) throw error;
      return this.known(study, participantID, winner);
    }
  }

  /**
   * Whether an open link's pending invite may start: its place is checked again under the lock (it may
   * have waited past the time a pending invite holds one). Runs in the start's transaction.
   */
  async admitStart(db: EntityManager, invite: Pick<RoomInvite, 'linkID' | 'interviewID'>, now = new Date()): Promise<boolean> {
    const recruitment = await this.recruitments.find(invite.interviewID, db);
    if (!recruitment) return true;
    const screener = await this.invites.quotaCellsOf(db, invite.linkID);
    return this.placeFree(db, invite.interviewID, screener, now, invite.linkID);
  }

  /** Under the recruitment's lock: whether the limit and every cell the person is in still have a place. */
  private async placeFree(db: EntityManager, interviewID: string, cells: readonly string[], now: Date, except: string | null): Promise<boolean> {
    await this.recruitments.lock(db, interviewID);
    // Read again under the lock: a setRecruitment meanwhile may have changed the quotas.
    const recruitment = await this.recruitments.find(interviewID, db);
    if (!recruitment) return true;
    const quotas = recruitment.quotas.filter((q) => cells.includes(q.quotaID));
    if (recruitment.limit === null && quotas.length === 0) return true;
    const holdSince = new Date(now.getTime() - RECRUITMENT_LIMITS.pendingHoldMinutes * 60_000);
    const held = await this.invites.placesHeld(db, interviewID, quotas.map((q) => q.quotaID), holdSince, except);
    if (recruitment.limit !== null && held.total >= recruitment.limit) return false;
    return quotas.every((q, i) => held.cells[i] < q.max);
  }

  private known(study: OpenStudy, participantID: string, invite: ParticipantInvite): Arrival {
    return {
      kind: 'invite',
      study,
      linkID: invite.linkID,
      status: invite.status,
      redirectUrl: inviteRedirect(study.recruitment.redirects, { status: invite.status, flagged: invite.flagged, participantID, passthrough: invite.passthrough }),
    };
  }

  private toDto(r: Recruitment): RecruitmentDto {
    return {
      interviewID: r.interviewID,
      open: Boolean(r.open),
      openURL: `${this.inviteSettings.inviteBaseUrl.replace(/\/[^/]*$/, '')}/s/${r.openID}`,
      participantParam: r.participantParam,
      passthrough: r.passthrough,
      limit: r.limit,
      screener: r.screener,
      quotas: r.quotas,
      redirects: r.redirects,
    };
  }
}

/** The participant id from the query: 400 when it is missing or not an id. */
function participantOf(query: OpenQuery, param: string): string {
  const value = query[param];
  if (typeof value !== 'string' || value.length === 0 || value.length > INVITE_LIMITS.participantID || hasEdgeWhitespace(value) || !value.isWellFormed() || value.includes('\0')) {
    throw new MissingParticipantException(param);
  }
  return value;
}

/** The passthrough values the query carries (one value each; cut to their bound; unusable ones left out). */
function passthroughOf(query: OpenQuery, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = query[name];
    if (typeof value === 'string' && value.isWellFormed() && !value.includes('\0')) out[name] = value.slice(0, RECRUITMENT_LIMITS.passthroughValue);
  }
  return out;
}

/** The screener form's answers: null when a question is unanswered, or answered with what it does not offer. */
function screenerAnswers(screener: readonly ScreenerQuestion[], query: OpenQuery): ScreenerAnswer[] | null {
  const answers: ScreenerAnswer[] = [];
  for (const q of screener) {
    const raw = query[`${SCREENER_FIELD_PREFIX}q_${q.screenerID}`];
    const given = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v): v is string => typeof v === 'string');
    const offered = q.options.map((o) => o.option);
    const chosen = offered.filter((o) => given.includes(o));
    if (chosen.length === 0 || chosen.length !== new Set(given).size || (!q.multiple && chosen.length > 1)) return null;
    answers.push({ screenerID: q.screenerID, options: chosen });
  }
  return answers;
}

/** The quota cells the answers put a person in. */
function quotaCellsOf(quotas: readonly Quota[], answers: readonly ScreenerAnswer[]): string[] {
  return quotas
    .filter((quota) => {
      const chosen = answers.find((a) => a.screenerID === quota.screenerID)?.options ?? [];
      return quota.options.some((o) => chosen.includes(o));
    })
    .map((q) => q.quotaID);
}

/** The chosen options in question order, `; `-joined, cut at the segment's bound; null without a screener. */
function segmentOf(answers: readonly ScreenerAnswer[]): string | null {
  if (answers.length === 0) return null;
  const text = answers.flatMap((a) => a.options).join(SEGMENT_SEPARATOR);
  let cut = text.slice(0, INVITE_LIMITS.segment);
  if (!cut.isWellFormed()) cut = cut.slice(0, -1);
  return cut;
}

/** The settings as stored, after the checks that relate fields to each other (400 naming the field). */
function checkedSettings(dto: SetRecruitmentDto, interviewID: string): Recruitment {
  const participantParam = dto.participantParam ?? 'pid';
  const passthrough = dto.passthrough ?? [];
  const reserved = (name: string) => (RESERVED_PARAMS as readonly string[]).includes(name) || name.startsWith(SCREENER_FIELD_PREFIX);
  if (reserved(participantParam)) throw new RecruitmentSettingException('participantParam', `must not be ${RESERVED_PARAMS.join(' or ')} or start with ${SCREENER_FIELD_PREFIX} (the open link uses those itself)`);
  passthrough.forEach((name, i) => {
    const field = `passthrough.${i}`;
    if (reserved(name)) throw new RecruitmentSettingException(field, `must not be ${RESERVED_PARAMS.join(' or ')} or start with ${SCREENER_FIELD_PREFIX} (the open link uses those itself)`);
    if (name === participantParam) throw new RecruitmentSettingException(field, `repeats participantParam ${JSON.stringify(name)}`);
    if (name === PID_PLACEHOLDER) throw new RecruitmentSettingException(field, `must not be ${PID_PLACEHOLDER}: {${PID_PLACEHOLDER}} stands for the participant id in redirects`);
    if (passthrough.indexOf(name) !== i) throw new RecruitmentSettingException(field, `repeats ${JSON.stringify(name)}`);
  });

  const screener: ScreenerQuestion[] = (dto.screener ?? []).map((q, i) => {
    if ((dto.screener ?? []).findIndex((other) => other.screenerID === q.screenerID) !== i) throw new RecruitmentSettingException(`screener.${i}.screenerID`, `repeats ${JSON.stringify(q.screenerID)}`);
    q.options.forEach((o, k) => {
      if (q.options.findIndex((other) => other.option === o.option) !== k) throw new RecruitmentSettingException(`screener.${i}.options.${k}.option`, `repeats ${JSON.stringify(o.option)}`);
    });
    if (!q.options.some((o) => o.qualifies)) throw new RecruitmentSettingException(`screener.${i}.options`, 'must hold an option that qualifies: otherwise nobody could take part');
    return { screenerID: q.screenerID, question: q.question, multiple: q.multiple, options: q.options.map((o) => ({ option: o.option, qualifies: o.qualifies })) };
  });

  const quotas: Quota[] = (dto.quotas ?? []).map((quota, i) => {
    if ((dto.quotas ?? []).findIndex((other) => other.quotaID === quota.quotaID) !== i) throw new RecruitmentSettingException(`quotas.${i}.quotaID`, `repeats ${JSON.stringify(quota.quotaID)}`);
    const question = screener.find((q) => q.screenerID === quota.screenerID);
    if (!question) {
      throw new RecruitmentSettingException(`quotas.${i}.screenerID`, `${JSON.stringify(quota.screenerID)} is not a question of the screener${screener.length ? ` (${screener.map((q) => q.screenerID).join(', ')})` : ' (there is none)'}`);
    }
    quota.options.forEach((option, k) => {
      if (!question.options.some((o) => o.option === option)) throw new RecruitmentSettingException(`quotas.${i}.options.${k}`, `${JSON.stringify(option)} is not an option of screener question ${JSON.stringify(question.screenerID)}`);
    });
    return { quotaID: quota.quotaID, screenerID: quota.screenerID, options: [...new Set(quota.options)], max: quota.max };
  });

  const known = [PID_PLACEHOLDER, ...passthrough];
  const redirects = Object.fromEntries(REDIRECT_OUTCOMES.map((outcome) => [outcome, dto.redirects?.[outcome] ?? null])) as Redirects;
  for (const outcome of REDIRECT_OUTCOMES) {
    const url = redirects[outcome];
    if (url === null) continue;
    const unknown = unknownPlaceholders(url, known);
    if (unknown.length > 0) {
      throw new RecruitmentSettingException(`redirects.${outcome}`, `uses ${unknown.map((n) => `{${n}}`).join(', ')}: only ${known.map((n) => `{${n}}`).join(', ')} are filled in (add a name to passthrough to use it)`);
    }
    if (!placeholdersOnlyAfterOrigin(url)) throw new RecruitmentSettingException(`redirects.${outcome}`, 'must keep its placeholders in the path, query or fragment: the host a person is sent to cannot depend on a parameter');
  }

  const recruitment = new Recruitment();
  Object.assign(recruitment, {
    interviewID,
    openID: newUrlSecret(),
    open: dto.open,
    participantParam,
    passthrough,
    limit: dto.limit ?? null,
    screener,
    quotas,
    redirects,
    updatedAt: new Date(),
  });
  return recruitment;
}
