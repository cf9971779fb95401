import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TokensService } from '../auth/tokens.service';
import { uuidv7 } from '../common/ids';
import { Interview } from '../interviews/interview.entity';
import { InviteLifecycleService } from '../invites/invite-lifecycle.service';
import { InvitesService } from '../invites/invites.service';
import { Product } from '../products/product.entity';
import { ProfilesService } from '../profiles/profiles.service';
import { AppConfig } from '../config/app-config';
import { DemoRandom, demo } from './demo-data';

export interface SeedOptions {
  orgs: number;
  users: number;
  products: number;
  interviews: number; // per product
  invites: number; // per interview
  turns: number; // per started/completed invite
  profiles: number; // per product
  seed: number;
  /** Prefix of the demo organization and user ids. */
  prefix: string;
}

export const DEFAULT_SEED: SeedOptions = { orgs: 3, users: 6, products: 30, interviews: 2, invites: 8, turns: 10, profiles: 2, seed: 42, prefix: 'demo' };

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
  profiles: number;
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly invites: InvitesService,
    private readonly lifecycle: InviteLifecycleService,
    private readonly profiles: ProfilesService,
    private readonly tokens: TokensService,
    private readonly config: AppConfig,
  ) {}

  async run(o: SeedOptions, progress: SeedProgress): Promise<SeedResult> {
    const r = new DemoRandom(o.seed);
    const orgIDs = Array.from({ length: o.orgs }, (_, i) => `${o.prefix}-org-${i + 1}`);
    const userIDs = Array.from({ length: o.users }, (_, i) => `${o.prefix}-user-${i + 1}`);

    progress.start(o.products, 'products');
    const products: Product[] = [];
    for (let i = 0; i < o.products; i += 500) {
      const batch: Product[] = [];
      for (let j = i; j < Math.min(o.products, i + 500); j++) {
        const now = new Date();
        batch.push(
          Object.assign(new Product(), {
            productID: uuidv7(now.getTime()),
            name: demo.productName(r, j),
            desc: demo.productDesc(r),
            orgID: orgIDs.length ? orgIDs[j % orgIDs.length] : null,
            userID: userIDs.length ? r.pick(userIDs) : null,
            url: r.next() < 0.7 ? `https://products.example/${j + 1}` : null,
            imageLink: r.next() < 0.5 ? `https://images.example/${j + 1}.png` : null,
            createdAt: now,
            updatedAt: now,
          }),
        );
      }
      if (batch.some((p) => p.orgID === null && p.userID === null)) throw new Error('--orgs or --users must be at least 1');
      await this.dataSource.getRepository(Product).insert(batch);
      products.push(...batch);
      progress.tick(batch.length);
    }
    progress.stop();

    // Only agents this service knows: the interview room will have to run these interviews.
    const otherAgent = [...this.config.interviewers.keys()][0] ?? this.config.defaultInterviewer;
    const interviews: Interview[] = [];
    progress.start(products.length * o.interviews, 'interviews');
    for (const product of products) {
      const batch: Interview[] = [];
      for (let k = 0; k < o.interviews; k++) {
        const now = new Date();
        batch.push(
          Object.assign(new Interview(), {
            interviewID: uuidv7(now.getTime()),
            productID: product.productID,
            interviewName: demo.interviewName(r),
            guidelines: demo.guidelines(r),
            userID: product.userID,
            interviewer: r.next() < 0.8 ? this.config.defaultInterviewer : otherAgent,
            createdAt: now,
            updatedAt: now,
          }),
        );
      }
      if (batch.length) await this.dataSource.getRepository(Interview).insert(batch);
      interviews.push(...batch);
      progress.tick(batch.length);
    }
    progress.stop();

    let inviteCount = 0;
    const linksByProduct = new Map<string, string[]>();
    progress.start(interviews.length * o.invites, 'invites');
    const productById = new Map(products.map((p) => [p.productID, p]));
    for (const interview of interviews) {
      if (o.invites === 0) break;
      const product = productById.get(interview.productID)!;
      const links = await this.invites.insertInvites({ interviewID: interview.interviewID, productID: product.productID, orgID: product.orgID }, o.invites);
      linksByProduct.set(product.productID, [...(linksByProduct.get(product.productID) ?? []), ...links]);
      for (const linkID of links) {
        // Every status: ~30% pending, 15% started, 45% completed, 10% expired.
        const roll = r.next();
        if (roll >= 0.3) {
          const person = demo.person(r);
          await this.lifecycle.start(linkID, { email: person.email, name: `${person.first} ${person.last}`, occupation: person.occupation });
          const turns = roll < 0.45 ? Math.ceil(o.turns / 2) : o.turns;
          if (turns > 0) await this.lifecycle.appendTurns(linkID, demo.conversation(r, turns));
          if (roll >= 0.45 && roll < 0.9) await this.lifecycle.complete(linkID);
          else if (roll >= 0.9) await this.lifecycle.expire(linkID);
        }
        progress.tick();
      }
      inviteCount += links.length;
    }
    progress.stop();

    let profileCount = 0;
    progress.start(products.length * o.profiles, 'profiles');
    const byOrg = new Map<string | null, Product[]>();
    for (const p of products) byOrg.set(p.orgID, [...(byOrg.get(p.orgID) ?? []), p]);
    for (const product of products) {
      const sameOrg = byOrg.get(product.orgID) ?? [];
      for (let k = 0; k < o.profiles; k++) {
        const person = demo.person(r);
        const other = sameOrg.length > 1 && r.next() < 0.3 ? r.pick(sameOrg) : product;
        const extra = other === product ? [] : [other.productID];
        const links = linksByProduct.get(product.productID) ?? [];
        await this.profiles.create({
          productIDs: [product.productID, ...extra],
          firstName: person.first,
          lastName: person.last,
          metadata: {
            source: r.pick(['interview', 'import', 'referral'] as const),
            acquired_date: new Date(Date.now() - r.int(30, 400) * 86_400_000).toISOString(),
            last_interviewed: links.length ? new Date(Date.now() - r.int(0, 29) * 86_400_000).toISOString() : null,
            interview_count: links.length ? r.int(1, 4) : 0,
            sentiment: Math.round((r.next() * 2 - 1) * 100) / 100,
          },
          details: demo.details(r, person.occupation),
          history: links.length ? [{ type: 'invite', id: r.pick(links) }] : [],
        });
        profileCount++;
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
      profiles: profileCount,
      adminToken: admin.token,
      orgToken: org.token,
    };
  }
}
