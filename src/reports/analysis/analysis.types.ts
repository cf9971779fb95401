import type { CodebookQuestion } from '../../codebooks/codebook.types';
/**
 * What an analysis reads and what it writes: the shapes of a report's `result` (see the contract's
 * "Reports"). The offline analysis, the LLM analyst, the report worker, the API's DTOs and the shared
 * page all speak these.
 */

/** One interviewee answer, as GET /v1/interviews/getAnswers lists it (the fields an analysis needs). */
export interface AnalysisAnswer {
  linkID: string;
  /** Index of the answer in its invite's conversation. */
  turnIndex: number;
  /** The guideline question it answers (0-based), or null: the closing "anything else", or unattributed. */
  questionIndex: number | null;
  /** The interviewee's words, exactly as stored. */
  answer: string;
  /** Counted as the built-in agent counts them (countWords). */
  words: number;
  /** VADER's compound score, -1..1; null where the answer could not be scored. */
  sentiment: number | null;
  /** The invite's language tag (`en`, `ja`, ...): the language the interview was held in. */
  language: string;
  /** True when it answers a follow-up (a probe) rather than the question itself. */
  followUp: boolean;
}

/** A question of the interview: the guideline questions, 0-based, as the built-in agent asks them. */
export interface AnalysisQuestion {
  questionIndex: number;
  question: string;
}

/**
 * A verbatim quote: `text` is a substring of at least three words of the interviewee turn
 * `conversation[turnIndex]` of the invite `linkID` (checked by isVerbatimQuote before a report is stored).
 */
export interface Quote {
  linkID: string;
  turnIndex: number;
  text: string;
  /**
   * A model's translation of `text` into the report's language (reports/addOne's language); null or
   * absent when the answer is in it already, or the offline analysis quoted it (it cannot translate).
   */
  translation?: string | null;
}

/** Sentiment over scored answers: compound ≤ -0.05 negative, ≥ 0.05 positive, neutral between. */
export interface SentimentSplit {
  /** Mean compound score over the scored answers; null when none was scored. */
  mean: number | null;
  negative: number;
  neutral: number;
  positive: number;
  /** How many answers were scored (negative + neutral + positive). */
  scored: number;
}

export interface Keyphrase {
  phrase: string;
  /** Distinct invites whose answers contain it. */
  answers: number;
}

/** A group of similar answers: a theme of one question (`q<k>-t<n>`, `qx-t<n>`, `q<k>-c<n>`) or across the interview (`all-t<n>`). */
export interface Theme {
  /** Stable inside its report: `q<questionIndex>-t<n>`, `qx-t<n>` (unattributed answers), `all-t<n>`, `q<k>-c<n>` (codebook themes, n in the codebook's order). */
  themeID: string;
  /** One phrase of 1–4 words found in the theme's answers (offline), or a model's label (≤ 80 chars, no digits). */
  theme: string;
  /** Offline: the theme's most typical answer excerpt, verbatim (≤ 200 chars). A model's: its own (≤ 300 chars, no digits). */
  description: string;
  /** Phrases typical of the theme's answers, most telling first (may be empty). */
  keyphrases: string[];
  /** Distinct invites among the answers coded with this theme: computed by the server. */
  answers: number;
  /** Answers coded with this theme: computed by the server. */
  mentions: number;
  quotes: Quote[];
  /** True for a theme found beside a codebook's themes (not in the codebook). */
  emerging: boolean;
  /** The language tag of the theme's answers (offline groups answers within one language); null when a model coded answers of several languages into it. */
  language: string | null;
}

/** Answers that fell in no theme of their question. */
export interface OtherGroup {
  /** Distinct invites. */
  answers: number;
  /** Answers. */
  mentions: number;
}

/** The codes of one answer the report read. */
export interface AnswerCode {
  linkID: string;
  turnIndex: number;
  questionIndex: number | null;
  /** Its themes of its own question, in the order of that question's themes ([] = other). */
  themeIDs: string[];
  /** Its themes across the interview (`all-t<n>`), [] when none. Not shown by getCodes; kept so counts can be recomputed. */
  acrossThemeIDs: string[];
}

export interface QuestionReport {
  questionIndex: number | null;
  question: string | null;
  answered: number;
  medianWords: number | null;
  sentiment: SentimentSplit;
  keyphrases: Keyphrase[];
  themes: Theme[];
  quotes: Quote[];
  /** Answers in some theme ÷ answers, 0–1 (4 decimals); null with no answer. */
  coverage: number | null;
  other: OtherGroup;
}

export interface AnalysisResult {
  questions: QuestionReport[];
  themes: Theme[];
  droppedQuotes: number;
  notes: string[];
  /** One per answer read, in the order of getAnswers (invite order, then turn order). Stored apart from the report's result JSON by the api branch. */
  codes: AnswerCode[];
}

/** What a report asks of its analysis besides the answers. */
export interface AnalysisOptions {
  /** 2–30, default 12: at most this many themes per question (codebook themes count too; emerging ones fill what is left). */
  maxThemes: number;
  /** The interview's codebook at the time the report runs ([] when none). */
  codebook: CodebookQuestion[];
  /**
   * The language a model writes the report in, translating answers in others for coding (addOne's
   * language; absent: English). The offline analysis cannot translate and does not read it.
   */
  language?: string;
}

export interface InviteCounts {
  total: number;
  pending: number;
  started: number;
  completed: number;
  abandoned: number;
  expired: number;
  revoked: number;
  /** Open link arrivals the screener did not qualify, and those who found their quota full. */
  screenedout: number;
  overquota: number;
  /** Invites whose quality is flagged (counted in total and their status; their answers are read only with includeFlagged). */
  flagged: number;
}

/** One segment of a report: its invites, those completed, and how many of its invites each theme holds. */
export interface SegmentReport {
  segment: string;
  invites: number;
  completed: number;
  themes: { themeID: string; answers: number }[];
}

/** A report's `result`. */
export interface ReportResult extends AnalysisResult {
  invites: InviteCounts;
  /** completed ÷ invites that were ever started (whatever their status now); null when none was. */
  completionRate: number | null;
  /** Start to completion, median over completed invites; null when none. */
  medianDurationSeconds: number | null;
  medianAnswerWords: number | null;
  sentiment: SentimentSplit;
  /** How the answers' sentiment was scored (SENTIMENT_METHOD). */
  sentimentMethod: string;
  /** Per segment of the interview's invites (those without one are in no segment). */
  segments: SegmentReport[];
}
