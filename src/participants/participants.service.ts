import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { MissingOneOfException } from '../common/errors';
import { ListAnswer, answerList } from '../common/keyset';
import { transaction } from '../database/transaction';
import { inviteDtoOf } from '../invites/invites.service';
import { ProfilesRepository } from '../profiles/profiles.repository';
import { profileDtoOf } from '../profiles/profiles.service';
import { ErasureDto, ErasureResultDto, PersonExportDto } from './dto/participant.dto';
import { ListErasuresQueryDto, PersonDto } from './dto/participant-input.dto';
import { normalEmail } from '../domain/email';
import { ErasureService, isPerson } from './erasure.service';
import { OneOwnerException } from './participants.errors';
import { DataOwner, ParticipantsRepository } from './participants.repository';


/** participants/erase, participants/export and participants/getErasures. */
@Injectable()
export class ParticipantsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: ParticipantsRepository,
    private readonly erasure: ErasureService,
    private readonly access: AccessService,
    private readonly profiles: ProfilesRepository,
  ) {}

  /** The one owner the body names, when the caller may act for it (403 otherwise). */
  private ownerOf(dto: PersonDto, principal: Principal): DataOwner {
    const orgID = dto.orgID ?? null;
    const userID = dto.userID ?? null;
    if ((orgID === null) === (userID === null)) throw new OneOwnerException();
    this.access.assertWritable(principal, { orgID, userID }, "the data of another organization's or user's interviewees");
    return orgID !== null ? { kind: 'org', id: orgID } : { kind: 'user', id: userID! };
  }

  /**
   * Erases the person within the owner in one transaction: nothing is half erased. Idempotent: a
   * second call finds nothing (and is audited with zero counts).
   */
  async erase(dto: PersonDto, principal: Principal): Promise<ErasureResultDto> {
    const owner = this.ownerOf(dto, principal);
    const email = normalEmail(dto.email);
    const by = (await this.repo.tokenName(principal.tokenId)) ?? `token ${principal.tokenId}`;
    return transaction(this.dataSource, async (db) => {
      const now = new Date();
      const invites = (await this.repo.invitesMentioning(db, owner, email, true)).filter((row) => isPerson(row.userInfo, email));
      const profile = (await this.repo.profileOf(db, owner, email, true)) ?? null;
      return this.erasure.erase(
        db,
        {
          owner,
          email,
          invites: invites.map((i) => ({ linkID: i.linkID, interviewID: i.interviewID, productID: i.productID, owner: i.product })),
          profile,
          by,
        },
        now,
      );
    });
  }

  /** Every invite and the profile of the person within the owner, in their resource shapes. */
  async export(dto: PersonDto, principal: Principal): Promise<PersonExportDto> {
    const owner = this.ownerOf(dto, principal);
    const email = normalEmail(dto.email);
    const db = this.dataSource.manager;
    const invites = (await this.repo.invitesMentioning(db, owner, email, false)).filter((row) => isPerson(row.userInfo, email));
    const profile = await this.repo.profileOf(db, owner, email, false);
    const profiles = [];
    if (profile) {
      const row = await this.profiles.findById(profile.profileID);
      const visible = (await this.profiles.productsOf([profile.profileID], this.access.listScope(principal, 'p'))).get(profile.profileID) ?? [];
      if (row) profiles.push(profileDtoOf(row, visible));
    }
    return { email: dto.email, invites: invites.map((row) => inviteDtoOf(row)), profiles };
  }

  async listErasures(query: ListErasuresQueryDto, principal: Principal): Promise<ListAnswer<ErasureDto>> {
    if (query.orgID === undefined && query.userID === undefined) throw new MissingOneOfException(['orgID', 'userID']);
    const list = this.repo.listErasures({ orgID: query.orgID, userID: query.userID }, this.access.listScope(principal, 'e'));
    return answerList(query, list, (rows) =>
      rows.map((r) => ({
        erasureID: r.erasureID,
        at: r.createdAt.toISOString(),
        by: r.by,
        emailSha256: r.emailSha256,
        invites: r.invites,
        profiles: r.profiles,
        reports: r.reports,
      })),
    );
  }
}
