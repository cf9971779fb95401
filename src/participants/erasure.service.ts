import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { uuidv7 } from '../common/ids';
import { emailSha256, normalEmail } from '../domain/email';
import { OutboxEvent, WebhookOutbox } from '../webhooks/webhook-outbox.service';
import { DataOwner, ParticipantsRepository } from './participants.repository';
import { ReportErasure } from '../reports/report-erasure';


/** Whether an invite's userInfo is this person's: the address compared trimmed and lower-cased. */
export function isPerson(userInfo: { email?: unknown } | null, email: string): boolean {
  return typeof userInfo?.email === 'string' && normalEmail(userInfo.email) === email;
}

/** An invite to erase, with who owns its product (which webhook endpoints hear of it). */
export interface InviteToErase {
  linkID: string;
  interviewID: string;
  productID: string;
  owner: Owned;
}

export interface ErasureCounts {
  erasureID: string;
  invites: number;
  profiles: number;
  reports: number;
}

/**
 * The erasure itself, in the caller's transaction: the invites' person and transcript cleared, and
 * they are taken out of stored reports (ReportErasure: their codes and quotes, every figure recounted
 * without them, any text that repeats their words replaced; share pages render the stored report), the
 * person's profile deleted when asked, the audit record, and participant.erased to the webhook endpoints
 * that see any of the products concerned. Used by participants/erase and by the retention sweep.
 */
@Injectable()
export class ErasureService {
  constructor(
    private readonly repo: ParticipantsRepository,
    private readonly outbox: WebhookOutbox,
    private readonly reportErasure: ReportErasure,
  ) {}

  async erase(
    db: EntityManager,
    what: { owner: DataOwner; email: string; invites: InviteToErase[]; profile: { profileID: string; products: (Owned & { productID: string })[] } | null; by: string },
    now: Date,
  ): Promise<ErasureCounts> {
    const erasureID = uuidv7();
    const linkIDs = what.invites.map((i) => i.linkID);
    // What they said, read before it is cleared: reports must keep none of it.
    const said = await this.repo.whatTheySaid(db, linkIDs);
    await this.repo.eraseInvites(db, linkIDs, now);
    const erased = what.invites.map((i) => ({ linkID: i.linkID, interviewID: i.interviewID, answers: said.get(i.linkID)?.answers ?? [], name: said.get(i.linkID)?.name ?? null }));
    const reports = await this.reportErasure.eraseFromReports(db, erased, now);
    const profiles = what.profile ? await this.repo.deleteProfile(db, what.profile.profileID) : 0;

    const sha = emailSha256(what.email);
    await this.repo.insertErasure(db, { erasureID, owner: what.owner, by: what.by, emailSha256: sha, invites: linkIDs.length, profiles, reports }, now);

    const products = new Map<string, Owned & { productID: string }>();
    for (const i of what.invites) products.set(i.productID, { productID: i.productID, ...i.owner });
    for (const p of what.profile?.products ?? []) products.set(p.productID, p);
    if (products.size > 0) {
      const event: OutboxEvent = {
        type: 'participant.erased',
        products: [...products.values()],
        // An endpoint hears of the links of the products its owner can see.
        data: (visible) => ({ erasureID, emailSha256: sha, linkIDs: what.invites.filter((i) => visible.includes(i.productID)).map((i) => i.linkID) }),
      };
      await this.outbox.write(db, [event], now);
    }
    return { erasureID, invites: linkIDs.length, profiles, reports };
  }
}
