import { InitialSchema1763726400000 } from './1763726400000-initial-schema';
import { IdempotencyKeys1763740000000 } from './1763740000000-idempotency-keys';
import { InterviewRoom1763800000000 } from './1763800000000-interview-room';
import { Webhooks1763900000000 } from './1763900000000-webhooks';
import { Insights1764000000000 } from './1764000000000-insights';
import { DataRights1765000000000 } from './1765000000000-data-rights';
import { FieldworkLanguages1766000000000 } from './1766000000000-fieldwork-languages';
import { ExactIdentifiers1767000000000 } from './1767000000000-exact-identifiers';
import { ReportCodes1767100000000 } from './1767100000000-report-codes';
import { Codebooks1767200000000 } from './1767200000000-codebooks';
import { VoiceInterviews1767300000000 } from './1767300000000-voice-interviews';
import { InterviewTranslations1767400000000 } from './1767400000000-interview-translations';
import { Recruitment1767500000000 } from './1767500000000-recruitment';
import { AnswerDigests1767600000000 } from './1767600000000-answer-digests';
import { EmailDigests1767700000000 } from './1767700000000-email-digests';

/** Listed explicitly (no glob) for the app and the tests, under tsc and SWC alike; the TypeORM CLI finds the built files (ormconfig.ts). */
export const migrations = [
  InitialSchema1763726400000,
  IdempotencyKeys1763740000000,
  InterviewRoom1763800000000,
  Webhooks1763900000000,
  Insights1764000000000,
  DataRights1765000000000,
  FieldworkLanguages1766000000000,
  ExactIdentifiers1767000000000,
  ReportCodes1767100000000,
  Codebooks1767200000000,
  VoiceInterviews1767300000000,
  InterviewTranslations1767400000000,
  Recruitment1767500000000,
  AnswerDigests1767600000000,
  EmailDigests1767700000000,
];
