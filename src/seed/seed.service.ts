import { Injectable } from '@nestjs/common';
import { TokensService } from '../auth/tokens.service';
import { uuidv7 } from '../common/ids';
import { NewInterview, InterviewsRepository } from '../interviews/interviews.repository';
import { BUILT_IN_INTERVIEWER } from '../interviewers/interviewer.limits';
import { InviteLifecycleService } from '../invites/invite-lifecycle.service';
import { InvitesService } from '../invites/invites.service';
import type { Product } from '../products/product.entity';
import { ProductsRepository } from '../products/products.repository';
import { ProfilesService } from '../profiles/profiles.service';
import { RoomService } from '../room/room.service';
import { DemoRandom, demo } from './demo-data';

export interface SeedOptions {
  orgs: number;
  users: number;
  products: number;
  interviews: number; // per product
  invites: number; // per interview
  turns: number; // answers given in an interview still under way
  profiles: number; // per product
  seed: number;
  /** Prefix of the demo organization and user ids. */
  prefix: string;
}

export const DEFAULT_SEED: SeedOptions = { orgs: 3, users: 6, products: 30, interviews: 2, invites: 8, turns: 2, profiles: 2, seed: 42, prefix: 'demo' };

const DAY_MS = 86_400_000;
/** Answers until the interviewer ends the interview (the built-in agent does within a dozen). */
const UNTIL_DONE = 100;

export interface SeedProgress {
  start(total: number, what: string): void;
  tick(n?: number): void;
  stop(): void;
}

export interface SeedResult {
  orgIDs: string[];
  products: number;
  interviews: number;
  invites: number;
  /** Profiles added: the interviewees' (one per email and owner) and the imported ones. */
  profiles: number;
  /** Of those, the ones made as if imported from elsewhere (--profiles per product); the rest came from interviews. */
  importedProfiles: number;
  /** Interviews conducted to the end. */
  completed: number;
  adminToken: string;
  orgToken: string;
}

/**
 * Fills the database with a realistic demo dataset through the service's own domain code:
 * the same entities and id scheme, InvitesService.insertInvites for links, the lifecycle service
 * for every status and transcript, and ProfilesService.create. New ids every run, so running it
 * twice adds a second dataset beside the first rather than clashing with it.
 */
@Injectable()
export class SeedService {
  constructor(
    private readonly productRows: ProductsRepository,
    private readonly interviewRows: InterviewsRepository,
    private readonly invites: InvitesService,
    private readonly lifecycle: InviteLifecycleService,
    private readonly room: RoomService,
    private readonly profiles: ProfilesService,
    private readonly tokens: TokensService,
  ) {}

  async run(o: SeedOptions, progress: SeedProgress): Promise<SeedResult> {
    const r = new DemoRandom(o.seed);
    const profilesBefore = await this.profileCount();
    let completed = 0;
    const orgIDs = Array.from({ length: o.orgs }, (_, i) => `${o.prefix}-org-${i + 1}`);
    const userIDs = Array.from({ length: o.users }, (_, i) => `${o.prefix}-user-${i + 1}`);

    progress.start(o.products, 'products');
    const products: Omit<Product, 'updatedAt'>[] = [];
    for (let i = 0; i < o.products; i += 500) {
      const batch: Omit<Product, 'updatedAt'>[] = [];
      for (let j = i; j < Math.min(o.products, i + 500); j++) {
        batch.push({
          productID: uuidv7(),
          name: demo.productName(r, j),
          desc: demo.productDesc(r),
          orgID: orgIDs.length ? orgIDs[j % orgIDs.length] : null,
          userID: userIDs.length ? r.pick(userIDs) : null,
          url: r.next() < 0.7 ? `https://products.example/${j + 1}` : null,
          imageLink: r.next() < 0.5 ? `https://images.example/${j + 1}.png` : null,
          createdAt: new Date(),
        });
      }
      if (batch.some((p) => p.orgID === null && p.userID === null)) throw new Error('--orgs or --users must be at least 1');
      await this.productRows.insertMany(batch);
      products.push(...batch);
      progress.tick(batch.length);
    }
    progress.stop();

    const interviews: NewInterview[] = [];
    progress.start(products.length * o.interviews, 'interviews');
    for (const product of products) {
      const batch: NewInterview[] = [];
      for (let k = 0; k < o.interviews; k++) {
        batch.push({
          interviewID: uuidv7(),
          productID: product.productID,
          interviewName: demo.interviewName(r),
          guidelines: demo.guidelines(r),
          userID: product.userID,
          // The built-in agent conducts the demo interviews: offline, whatever DEFAULT_INTERVIEWER names.
          interviewer: BUILT_IN_INTERVIEWER,
          retentionDays: null,
          redactPII: false,
        });
      }
      await this.interviewRows.insert(batch, new Date());
      interviews.push(...batch);
      progress.tick(batch.length);
    }
    progress.stop();

    let inviteCount = 0;
    progress.start(interviews.length * o.invites, 'invites');
    const productById = new Map(products.map((p) => [p.productID, p]));
    for (const interview of interviews) {
      if (o.invites === 0) break;
      const product = productById.get(interview.productID)!;
      const target = { interviewID: interview.interviewID, productID: product.productID, orgID: product.orgID };
      // Every status, through the interview room as an interviewee would go: ~30% pending, 20% under
      // way, 40% completed, 10% expired (links made 40 to 60 days ago, expired by the lifecycle's sweep).
      const rolls = Array.from({ length: o.invites }, () => r.next());
      const live = rolls.filter((roll) => roll < 0.9);
      const expiring = o.invites - live.length;
      const links = await this.invites.insertInvites(target, live.length);
      if (expiring > 0) {
        await this.invites.insertInvites(target, expiring, { createdAt: new Date(Date.now() - r.int(40, 60) * DAY_MS), expiresInDays: 30 });
        await this.lifecycle.sweepExpired();
        progress.tick(expiring);
      }
      for (const [i, linkID] of links.entries()) {
        const roll = live[i];
        if (roll >= 0.3 && (await this.interview(linkID, r, roll < 0.5 ? o.turns : UNTIL_DONE))) completed++;
        progress.tick();
      }
      inviteCount += o.invites;
    }
    progress.stop();

    progress.start(products.length * o.profiles, 'imported profiles');
    const byOrg = new Map<string | null, Omit<Product, 'updatedAt'>[]>();
    for (const p of products) byOrg.set(p.orgID, [...(byOrg.get(p.orgID) ?? []), p]);
    for (const product of products) {
      const sameOrg = byOrg.get(product.orgID) ?? [];
      for (let k = 0; k < o.profiles; k++) {
        const person = demo.person(r);
        const other = sameOrg.length > 1 && r.next() < 0.3 ? r.pick(sameOrg) : product;
        const extra = other === product ? [] : [other.productID];
        // Profiles from elsewhere (an import, a referral): the interviews above made their own.
        await this.profiles.create({
          productIDs: [product.productID, ...extra],
          firstName: person.first,
          lastName: person.last,
          metadata: {
            source: r.pick(['import', 'referral'] as const),
            acquired_date: new Date(Date.now() - r.int(30, 400) * DAY_MS).toISOString(),
            last_interviewed: null,
            interview_count: 0,
            sentiment: null,
          },
          details: demo.details(r, person.occupation),
          history: [],
        });
        progress.tick();
      }
    }
    progress.stop();

    const admin = await this.tokens.create({ isAdmin: true, name: `${o.prefix} seed admin` });
    const org = await this.tokens.create({ orgID: orgIDs[0] ?? undefined, userID: orgIDs.length ? undefined : userIDs[0], name: `${o.prefix} seed` });
    return {
      orgIDs,
      products: products.length,
      interviews: interviews.length,
      invites: inviteCount,
      profiles: (await this.profileCount()) - profilesBefore,
      importedProfiles: products.length * o.profiles,
      completed,
      adminToken: admin.token,
      orgToken: org.token,
    };
  }

  /**
   * One interview through the room: the interviewee starts it and answers (scripted) until the
   * interviewer ends it, or stops after `answers` answers, leaving it under way.
   */
  private async interview(linkID: string, r: DemoRandom, answers: number): Promise<boolean> {
    const person = demo.person(r);
    await this.room.start(linkID, { name: `${person.first} ${person.last}`, email: person.email, occupation: person.occupation, consent: true });
    for (let i = 0; i < answers; i++) {
      if ((await this.room.reply(linkID, { content: demo.answer(r) })).status === 'completed') return true;
    }
    return false;
  }

  private async profileCount(): Promise<number> {
    return this.profiles.count();
  }
}
