import type { ConfigType } from '@nestjs/config';
import { Injectable, Inject } from '@nestjs/common';
import { invitesConfig } from '../invites/invites.config';
import { OPEN_STATUSES } from '../domain/invite-status';
import { negotiateLanguage } from '../languages/languages';
import { roomCsp } from './room-page';
import { OpenLinkNotFoundException } from '../recruitment/recruitment.errors';
import { OpenPageContext, renderOpenMessage, renderScreener } from './open-page';
import { OpenQuery, RecruitmentService } from '../recruitment/recruitment.service';
import { RECRUITMENT_LIMITS } from '../recruitment/recruitment.limits';
import { redirectOrigins } from '../recruitment/redirects';

/** What the open link answers: a place to go, or a page. */
export type OpenAnswer = { location: string; html?: undefined; csp?: undefined } | { location?: undefined; html: string; csp: string };

/** A well-formed open ID: what newUrlSecret makes, at most a column's width (anything else is 404 without a query). */
const OPEN_ID = new RegExp(`^[A-Za-z0-9_-]{1,${RECRUITMENT_LIMITS.openId}}$`);

/**
 * The open link as a person's browser sees it: the screener page, or where the arrival leads (the
 * room of their invite, the outcome's redirect), or the outcome's page when it has no redirect.
 */
@Injectable()
export class OpenLinkService {
  constructor(
    private readonly recruitment: RecruitmentService,
    @Inject(invitesConfig.KEY) private readonly inviteSettings: ConfigType<typeof invitesConfig>,
  ) {}

  async arrive(openID: string, query: OpenQuery, acceptLanguage: string | undefined): Promise<OpenAnswer> {
    if (!OPEN_ID.test(openID)) throw new OpenLinkNotFoundException();
    const arrival = await this.recruitment.arrive(openID, query);
    const { study } = arrival;
    const lang = typeof query.lang === 'string' ? query.lang : null;
    const context: OpenPageContext = {
      language: negotiateLanguage(study.interviewLanguage, lang, acceptLanguage),
      title: study.publicTitle || study.interviewName,
      productName: study.productName,
      productImage: study.productImage,
    };
    const csp = roomCsp(study.productImage);
    if (arrival.kind === 'screener') {
      const { recruitment } = study;
      const carried: Record<string, string> = {};
      for (const name of [recruitment.participantParam, ...recruitment.passthrough, 'lang']) {
        if (typeof query[name] === 'string') carried[name] = query[name];
      }
      // The form's answer may be a redirect to the panel: form-action covers where a submission is redirected, so the panel's origins are allowed.
      const origins = redirectOrigins(recruitment.redirects);
      const formCsp = origins.length > 0 ? csp.replace("form-action 'self'", `form-action 'self' ${origins.join(' ')}`) : csp;
      return { html: renderScreener(context, recruitment.screener, carried, arrival.missing), csp: formCsp };
    }
    // An interview under way (or still to start) goes on in its room; the room keeps the language asked for.
    const room = `${this.inviteSettings.inviteBaseUrl}/${arrival.linkID}${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`;
    if (OPEN_STATUSES.includes(arrival.status)) return { location: room };
    if (arrival.redirectUrl) return { location: arrival.redirectUrl };
    if (arrival.status === 'screenedout' || arrival.status === 'overquota') return { html: renderOpenMessage(context, arrival.status), csp };
    // Completed, abandoned, expired, revoked without a redirect: the room shows where the invite stands.
    return { location: room };
  }
}
