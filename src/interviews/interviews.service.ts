import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { uuidv7 } from '../common/ids';
import { ListAnswer, answerList } from '../common/keyset';
import { askedQuestions, interviewQuestions, questionsOf } from '../interviewers/default-interviewer';
import { InterviewersService } from '../interviewers/interviewers.service';
import { AUTO_LANGUAGE, baseLanguageOf } from '../languages/languages';
import { ProductsService } from '../products/products.service';
import { CreateInterviewDto } from './dto/create-interview.dto';
import { InterviewDto, QuestionDto } from './dto/interview.dto';
import { ListInterviewsQueryDto } from './dto/interview-queries.dto';
import { UpdateInterviewDto } from './dto/update-interview.dto';
import {
  InterviewHasInvitesException,
  InterviewNotFoundException,
  KeepAudioWithRedactionException,
  TranslationOfBaseLanguageException,
  TranslationQuestionCountException,
} from './interviews.errors';
import { VoiceService } from '../voice/voice.service';
import { Interview } from './interview.entity';
import { InterviewChanges, InterviewsRepository, OwnedInterview, Translations } from './interviews.repository';
import type { Owned } from '../access/access-rule';
import { transaction } from '../database/transaction';

function toDto(i: Interview): InterviewDto {
  return {
    interviewID: i.interviewID,
    productID: i.productID,
    interviewName: i.interviewName,
    guidelines: i.guidelines,
    translations: i.translations,
    userID: i.userID,
    interviewer: i.interviewer,
    language: i.language ?? AUTO_LANGUAGE,
    publicTitle: i.publicTitle,
    consentText: i.consentText,
    completionRedirectUrl: i.completionRedirectUrl,
    retentionDays: i.retentionDays,
    redactPII: i.redactPII,
    mode: i.mode,
    keepAudio: i.keepAudio,
  };
}

/** 400 for kept recordings of answers that are redacted (the interview's settings as they will be). */
function assertAudioMayBeKept(settings: { redactPII: boolean; keepAudio: boolean }): void {
  if (settings.redactPII && settings.keepAudio) throw new KeepAudioWithRedactionException();
}

/**
 * 400 unless every translation holds as many questions as the guidelines and none is in the base
 * language (the interview's settings as they will be).
 */
function assertTranslationsFit(settings: { guidelines: string | null; translations: Translations | null; language: string | null }): void {
  if (!settings.translations) return;
  const base = questionsOf(settings.guidelines).length;
  const baseLanguage = baseLanguageOf(settings.language);
  for (const [language, text] of Object.entries(settings.translations)) {
    if (language === baseLanguage) throw new TranslationOfBaseLanguageException(language);
    const translated = questionsOf(text).length;
    if (translated !== base) throw new TranslationQuestionCountException(language, translated, base);
  }
}

/** No translation is stored as null rather than {}: one way to say "none". */
function storedTranslations(translations: Translations | null | undefined): Translations | null {
  return translations && Object.keys(translations).length > 0 ? translations : null;
}

/** `auto` is stored as null, so that a new default would reach every interview left on it. */
function storedLanguage(language: string | null | undefined): string | null {
  return !language || language === AUTO_LANGUAGE ? null : language;
}

/** An interview, its product's name and the questions asked in it. */
export interface InterviewQuestions {
  interview: Interview;
  productName: string;
  productDesc: string | null;
  questions: QuestionDto[];
}

@Injectable()
export class InterviewsService {
  constructor(
    private readonly interviews: InterviewsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: AccessService,
    private readonly products: ProductsService,
    private readonly interviewers: InterviewersService,
    private readonly voice: VoiceService,
  ) {}

  /** The interview and its product's owners when the caller may see its product, else its 404. */
  async requireVisible(principal: Principal, interviewID: string, options: { db?: EntityManager; lock?: boolean } = {}): Promise<OwnedInterview> {
    return this.access.visible(principal, await this.interviews.findOwned(interviewID, options), (i) => i.owner, () => new InterviewNotFoundException(interviewID));
  }

  async create(dto: CreateInterviewDto, principal: Principal): Promise<{ interviewID: string }> {
    if (dto.mode === 'voice') this.voice.assertVoiceAvailable();
    assertAudioMayBeKept({ redactPII: dto.redactPII ?? false, keepAudio: dto.keepAudio ?? false });
    const translations = storedTranslations(dto.translations);
    assertTranslationsFit({ guidelines: dto.guidelines ?? null, translations, language: storedLanguage(dto.language) });
    await this.products.requireVisible(principal, dto.productID);
    const interviewID = uuidv7();
    await this.interviews.insert(
      [
        {
          interviewID,
          productID: dto.productID,
          interviewName: dto.interviewName,
          guidelines: dto.guidelines ?? null,
          translations,
          userID: dto.userID ?? null,
          interviewer: this.interviewers.defaultName,
          language: storedLanguage(dto.language),
          publicTitle: dto.publicTitle || null,
          consentText: dto.consentText?.trim() ? dto.consentText : null,
          completionRedirectUrl: dto.completionRedirectUrl || null,
          retentionDays: dto.retentionDays ?? null,
          redactPII: dto.redactPII ?? false,
          mode: dto.mode ?? 'text',
          keepAudio: dto.keepAudio ?? false,
        },
      ],
      new Date(),
    );
    return { interviewID };
  }

  async update(dto: UpdateInterviewDto, principal: Principal): Promise<{ interviewID: string; status: 'updated' }> {
    const changes: InterviewChanges = {};
    if (dto.interviewName !== undefined) changes.interviewName = dto.interviewName;
    if (dto.guidelines !== undefined) changes.guidelines = dto.guidelines;
    if (dto.translations !== undefined) changes.translations = storedTranslations(dto.translations);
    if (dto.userID !== undefined) changes.userID = dto.userID;
    if (dto.language !== undefined) changes.language = storedLanguage(dto.language);
    if (dto.publicTitle !== undefined) changes.publicTitle = dto.publicTitle || null;
    if (dto.consentText !== undefined) changes.consentText = dto.consentText?.trim() ? dto.consentText : null;
    if (dto.completionRedirectUrl !== undefined) changes.completionRedirectUrl = dto.completionRedirectUrl || null;
    if (dto.retentionDays !== undefined) changes.retentionDays = dto.retentionDays;
    if (dto.redactPII !== undefined) changes.redactPII = dto.redactPII ?? false;
    if (dto.mode !== undefined) changes.mode = dto.mode ?? 'text';
    if (dto.keepAudio !== undefined) changes.keepAudio = dto.keepAudio ?? false;
    if (dto.mode === 'voice') this.voice.assertVoiceAvailable();
    if (dto.interviewer) this.interviewers.assertKnown(dto.interviewer);
    if (dto.interviewer !== undefined) changes.interviewer = dto.interviewer || this.interviewers.defaultName;

    // Read, check and write in one transaction, the interview row locked, so that a concurrent
    // createInvites cannot slip invites in between the "no invites yet" check and the move.
    await transaction(this.dataSource, async (db) => {
      const { interview } = await this.requireVisible(principal, dto.interviewID, { db, lock: true });
      assertAudioMayBeKept({ redactPII: changes.redactPII ?? interview.redactPII, keepAudio: changes.keepAudio ?? interview.keepAudio });
      assertTranslationsFit({
        guidelines: changes.guidelines !== undefined ? changes.guidelines : interview.guidelines,
        translations: changes.translations !== undefined ? changes.translations : interview.translations,
        language: changes.language !== undefined ? changes.language : interview.language,
      });
      if (dto.productID !== undefined && dto.productID !== interview.productID) {
        await this.products.requireVisible(principal, dto.productID, db);
        if (await this.interviews.hasInvites(interview.interviewID, db)) throw new InterviewHasInvitesException(interview.interviewID);
        changes.productID = dto.productID;
      }
      await this.interviews.update(interview.interviewID, changes, new Date(), db);
    });
    return { interviewID: dto.interviewID, status: 'updated' };
  }

  /**
   * The interview (when the caller may see it) and the questions the built-in interviewer asks in it
   * (interviewQuestions): what turns' question indexes, answers and reports refer to. With `language`,
   * the questions as an invite in it is asked them (its translation, else the base questions).
   */
  async questionsFor(principal: Principal, interviewID: string, language?: string): Promise<InterviewQuestions & { owner: Owned }> {
    const { owner } = await this.requireVisible(principal, interviewID);
    return { ...(await this.questionsOf(interviewID, language)), owner };
  }

  /** The same, for the service's own work (a report's run): no caller, no visibility. */
  async questionsOf(interviewID: string, language?: string): Promise<InterviewQuestions> {
    const found = await this.interviews.findOwned(interviewID);
    if (!found) throw new InterviewNotFoundException(interviewID);
    const product = await this.products.findForWork(found.interview.productID);
    const texts =
      language === undefined
        ? // An interview held in one language is asked the general set in it; with `auto` each invite may differ, so the English set stands for them.
          interviewQuestions(found.interview.guidelines, product.name, found.interview.language ?? undefined)
        : askedQuestions(found.interview, product.name, language);
    const questions = texts.map((question, questionIndex) => ({ questionIndex, question }));
    return { interview: found.interview, productName: product.name, productDesc: product.desc, questions };
  }

  async getOne(interviewID: string, principal: Principal): Promise<InterviewDto> {
    return toDto((await this.requireVisible(principal, interviewID)).interview);
  }

  async list(query: ListInterviewsQueryDto, principal: Principal): Promise<ListAnswer<InterviewDto>> {
    await this.products.requireVisible(principal, query.productID);
    return answerList(query, this.interviews.list(query.productID), (rows) => rows.map(toDto));
  }
}
