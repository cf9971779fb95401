import type { ConfigType } from '@nestjs/config';
import { Injectable, Logger, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Background } from '../common/background';
import { transaction } from '../database/transaction';
import { normalEmail } from '../domain/email';
import { ErasureService, isPerson } from './erasure.service';
import { RETENTION_ACTOR } from './participants.limits';
import { DataOwner, DueInvite, ParticipantsRepository } from './participants.repository';
import { retentionConfig } from './retention.config';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 200;

/**
 * Erases the interviewee's data of invites kept past their retention (the interview's retentionDays,
 * else RETENTION_DAYS; neither: kept), every RETENTION_SWEEP_SECONDS in every instance of the HTTP
 * service (a loop of the Background component, BackgroundModule). Safe with several at once: each
 * batch is one transaction over rows claimed with SKIP LOCKED (MySQL; SQLite has one writer), and an erased invite is never due again. Each person's invites are
 * erased as participants/erase would, audited with by "retention"; their profile goes with the last of
 * their unerased invites. `now` is a parameter so that tests move the clock instead of waiting.
 */
@Injectable()
export class RetentionSweeper {
  private readonly logger = new Logger(RetentionSweeper.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: ParticipantsRepository,
    private readonly erasure: ErasureService,
    @Inject(retentionConfig.KEY) private readonly config: ConfigType<typeof retentionConfig>,
    background: Background,
  ) {
    background.loop({ name: RetentionSweeper.name, everyMs: config.sweepMs }, async () => void (await this.sweep()));
  }

  /** Erases every invite past its retention as of `now`; answers how many. A failure is logged and tried next time. */
  async sweep(now = new Date()): Promise<number> {
    let total = 0;
    try {
      const periods: (number | null)[] = await this.repo.retentionPeriods();
      if (this.config.retentionDays !== null) periods.push(null);
      for (const days of periods) {
        const cutoff = new Date(now.getTime() - (days ?? this.config.retentionDays!) * DAY_MS);
        for (let erased = -1; erased !== 0; total += erased) erased = await this.sweepBatch(days, cutoff, now);
      }
      if (total > 0) this.logger.log({ msg: 'erased invites past their retention', count: total });
    } catch (error) {
      this.logger.warn({ msg: 'retention sweep failed; will try again', error: error instanceof Error ? error.message : String(error) });
    }
    return total;
  }

  private sweepBatch(days: number | null, cutoff: Date, now: Date): Promise<number> {
    return transaction(this.dataSource, async (db) => {
      const due = await this.repo.lockDueForRetention(db, days, cutoff, BATCH);
      // Invites no one ever started hold nothing of a person: they are only marked erased.
      const people = new Map<string, { owner: DataOwner; email: string; rows: DueInvite[] }>();
      const anonymous: string[] = [];
      for (const row of due) {
        const email = row.userInfo?.email ?? null;
        const owner: DataOwner | null = row.orgID !== null ? { kind: 'org', id: row.orgID } : row.product.userID !== null ? { kind: 'user', id: row.product.userID } : null;
        if (typeof email !== 'string' || owner === null) {
          anonymous.push(row.linkID);
          continue;
        }
        const key = `${owner.kind}:${owner.id}\n${normalEmail(email)}`;
        const person = people.get(key) ?? { owner, email: normalEmail(email), rows: [] };
        person.rows.push(row);
        people.set(key, person);
      }
      if (anonymous.length > 0) await this.repo.eraseInvites(db, anonymous, now);
      for (const person of people.values()) await this.erasePerson(db, person, now);
      return due.length;
    });
  }

  private async erasePerson(db: EntityManager, person: { owner: DataOwner; email: string; rows: DueInvite[] }, now: Date): Promise<void> {
    const erasing = new Set(person.rows.map((r) => r.linkID));
    const kept = (await this.repo.invitesMentioning(db, person.owner, person.email, false)).filter((r) => !erasing.has(r.linkID) && isPerson(r.userInfo, person.email));
    // The profile goes with the person's last invite that is still kept.
    const profile = kept.length === 0 ? ((await this.repo.profileOf(db, person.owner, person.email, true)) ?? null) : null;
    await this.erasure.erase(
      db,
      {
        owner: person.owner,
        email: person.email,
        invites: person.rows.map((r) => ({ linkID: r.linkID, interviewID: r.interviewID, productID: r.productID, owner: r.product })),
        profile,
        by: RETENTION_ACTOR,
      },
      now,
    );
  }
}
