import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, registerDecorator } from 'class-validator';
import { IsCleanText, IsRedirectUrl, OptionalOwnerId, OptionalText, RequiredId, RequiredText } from '../../common/validation';
import { INTERVIEW_LANGUAGES, LANGUAGE_TAGS, isLanguage } from '../../languages/languages';
import { INTERVIEW_MODES, InterviewMode } from '../../voice/voice.limits';
import { INTERVIEW_LIMITS } from '../../domain/interview.limits';

/** `auto` or a supported tag; null resets to `auto`. */
function OptionalLanguage(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      enum: INTERVIEW_LANGUAGES,
      example: 'auto',
      description:
        'The language of the interview room and the built-in interviewer: `auto` (the default: each invite in the best match of its link\'s `?lang=`, then the ' +
        'browser\'s Accept-Language, else English) or a tag from GET /v1/languages/getList. Another value is 400; null resets it to `auto`.',
    }),
    IsOptional(),
    IsString({ message: '$property must be a string' }),
    IsIn(INTERVIEW_LANGUAGES, { message: `$property must be auto or one of ${INTERVIEW_LANGUAGES.slice(1).join(', ')}` }),
  );
}

/**
 * Why an object is not `{supported tag: guidelines text}` within the limits, or null when it is. The
 * question counts need the guidelines (stored ones on update): the service checks them.
 */
export function translationsProblem(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return 'translations must be an object of {language tag: guidelines text}';
  const max = INTERVIEW_LIMITS.translation;
  for (const [tag, text] of Object.entries(value)) {
    if (!isLanguage(tag)) return `translations: ${JSON.stringify(tag.slice(0, 40))} is not a supported language (one of ${LANGUAGE_TAGS.join(', ')})`;
    if (typeof text !== 'string') return `translations.${tag} must be a string`;
    if (text.length > max) return `translations.${tag} must be at most ${max} characters long`;
    if (text.includes('\0') || !text.isWellFormed()) return `translations.${tag} must not contain NUL characters or unpaired surrogates`;
  }
  return null;
}

/** One optional property per supported tag: the OpenAPI document lists the languages a translation may be in. */
export const TRANSLATIONS_PROPERTIES = Object.fromEntries(LANGUAGE_TAGS.map((tag) => [tag, { type: 'string' as const, maxLength: INTERVIEW_LIMITS.translation }]));

/** The guidelines in other languages; null clears them. */
function OptionalTranslations(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'object',
      nullable: true,
      properties: TRANSLATIONS_PROPERTIES,
      additionalProperties: false,
      example: {
        de: '1. Wie haben Sie zum ersten Mal von Acme Notes gehört?\n2. Was hätte Sie in der ersten Woche fast aufgeben lassen?',
        ja: '1. Acme Notes を最初に知ったきっかけは何ですか？\n2. 最初の一週間で、やめそうになったことは何ですか？',
      },
      description:
        'The guidelines in other languages, `{language tag: guidelines text}` (tags from GET /v1/languages/getList, each text at most ' +
        `${INTERVIEW_LIMITS.translation} characters). Each must hold as many questions as \`guidelines\` (else 400 naming the language and both counts): ` +
        'question k of every language is question k. The built-in interviewer asks an invite held in one of these languages its questions as written ' +
        'here; an `openai` agent gets the translation in its prompt. Not the base language (the interview\'s `language`, or `en` when it is `auto`). ' +
        'updateOne replaces the whole object; null clears it.',
    }),
    IsOptional(),
    (target: object, propertyName: string | symbol) =>
      registerDecorator({
        name: 'isTranslations',
        target: target.constructor,
        propertyName: propertyName as string,
        options: { message: (args) => translationsProblem(args.value) ?? 'translations are invalid' },
        validator: { validate: (value: unknown) => translationsProblem(value) === null },
      }),
  );
}

/** An absolute https URL (a panel's completion link); null clears it. */
function OptionalHttpsUrl(): PropertyDecorator {
  const max = INTERVIEW_LIMITS.completionRedirectUrl;
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      format: 'uri',
      pattern: '^https://',
      maxLength: max,
      example: 'https://panel.example/complete?pid=4711',
      description:
        'Where the room sends the interviewee when the interview ends (a panel provider\'s completion URL), with `status=completed` or `status=abandoned` ' +
        'added to its query. Absolute https only, without credentials (`user:pw@`); never carries the linkID, and the page sends no Referer. null clears it.',
    }),
    IsOptional(),
    IsString({ message: '$property must be a string' }),
    MaxLength(max, { message: `$property must be at most ${max} characters long` }),
    IsCleanText(),
    IsRedirectUrl(),
  );
}

/** The interviewer is not accepted here: a new interview gets the default interviewer agent. */
export class CreateInterviewDto {
  @RequiredId('The product the interview is about; must exist and be visible to the caller (else 404). A productID from products/addOne or products/getList.')
  productID: string;

  @RequiredText({ description: 'Name of the interview.', example: 'Onboarding friction, Q4', max: INTERVIEW_LIMITS.name, notBlank: true })
  interviewName: string;

  @OptionalText({
    description:
      'Insights to extract and questions to ask, one per line. The built-in interviewer asks, in order and as written, only the lines that end with a ' +
      'question mark (?, ？ or ؟) once list markers are stripped; every other line is a note for the team and is never shown to the interviewee. ' +
      'Without any question it asks five general questions about the product.',
    example: 'Goal: onboarding friction (a note: not asked)\n1. How did you first hear about the product?\n2. What almost made you give up?',
    max: INTERVIEW_LIMITS.guidelines,
  })
  guidelines?: string | null;

  @OptionalTranslations()
  translations?: Record<string, string> | null;

  @OptionalOwnerId('User associated with the interview.', 'user_42')
  userID?: string | null;

  @OptionalLanguage()
  language?: string | null;

  @OptionalText({ description: 'The title interviewees see on the room\'s page instead of interviewName (an internal name may say more than they should see). null: interviewName.', example: 'Tell us about your first week', max: INTERVIEW_LIMITS.publicTitle })
  publicTitle?: string | null;

  @OptionalText({
    description: 'What interviewees agree to before they start, for this interview, instead of the service\'s CONSENT_TEXT (or its default in the room\'s language). Shown as written, whatever the room\'s language. null: the default.',
    example: 'Acme Research runs this interview for Acme Notes. Your answers are recorded and kept for 90 days.',
    max: INTERVIEW_LIMITS.consentText,
  })
  consentText?: string | null;

  @OptionalHttpsUrl()
  completionRedirectUrl?: string | null;
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    nullable: true,
    minimum: INTERVIEW_LIMITS.retentionDays.min,
    maximum: INTERVIEW_LIMITS.retentionDays.max,
    description:
      'Days an invite of this interview is kept once it is completed, abandoned, expired or revoked; then its interviewee\'s data is erased as ' +
      'participants/erase does (audited as "retention"). Overrides RETENTION_DAYS; null: RETENTION_DAYS (unset: kept).',
  })
  @IsOptional()
  @Min(INTERVIEW_LIMITS.retentionDays.min, { message: `retentionDays must be from ${INTERVIEW_LIMITS.retentionDays.min} to ${INTERVIEW_LIMITS.retentionDays.max}` })
  @Max(INTERVIEW_LIMITS.retentionDays.max, { message: `retentionDays must be from ${INTERVIEW_LIMITS.retentionDays.min} to ${INTERVIEW_LIMITS.retentionDays.max}` })
  // Listed last because class-validator runs decorators bottom-up and stops at the first error.
  @IsInt({ message: 'retentionDays must be a whole number' })
  retentionDays?: number | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    default: false,
    description:
      'true: e-mail addresses, phone numbers, payment card numbers (Luhn-valid), IBANs and IP addresses in an answer become [email], [phone], [card], ' +
      '[iban], [ip] before the answer is stored, logged or sent to any agent; the original is never stored. null: false.',
  })
  @IsOptional()
  @IsBoolean({ message: 'redactPII must be true or false' })
  redactPII?: boolean | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    enum: INTERVIEW_MODES,
    example: 'voice',
    description:
      'Optional; default `text`. `text`: the interviewee types each answer. `voice`: the room records each answer with the microphone, the service ' +
      'transcribes it in the invite\'s language (TRANSCRIBER) and stores the text as the answer; the interviewer\'s turns are spoken (SPEAKER, else ' +
      'the browser\'s speech synthesis) and typing stays possible. `voice` needs a transcriber (see GET /v1/interviewers/getModes), else 400. null: `text`.',
  })
  @IsOptional()
  @IsString({ message: 'mode must be a string' })
  @IsIn(INTERVIEW_MODES, { message: `mode must be one of ${INTERVIEW_MODES.join(', ')}` })
  mode?: InterviewMode | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    example: false,
    description:
      'Optional; default false. true: each recorded answer of a voice interview is kept in the database with its invite, fetched with ' +
      'GET /v1/invites/getAudio and erased with the transcript (participants/erase, retention, deleteOne). false: a recording is transcribed and ' +
      'never written anywhere. Cannot be combined with redactPII (400): a recording holds what redaction removes. null: false.',
  })
  @IsOptional()
  @IsBoolean({ message: 'keepAudio must be true or false' })
  keepAudio?: boolean | null;
}
