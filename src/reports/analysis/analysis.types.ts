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

/** A group of similar answers. */
export interface Theme {
  /** A short label: the offline analysis names it by its most telling terms. */
  theme: string;
  description: string;
  /** Distinct invites among the theme's members: computed by the server, never taken from a model. */
  answers: number;
  quotes: Quote[];
}

export interface QuestionReport {
  /** null: the answers attributed to no guideline question (the closing "anything else", unattributed turns). */
  questionIndex: number | null;
  question: string | null;
  /** Distinct invites with at least one answer to it. */
  answered: number;
  /** Median words per answer; null when there is no answer. */
  medianWords: number | null;
  sentiment: SentimentSplit;
  keyphrases: Keyphrase[];
  themes: Theme[];
  /** The most positive and the most negative scored answers, when there are any. */
  quotes: Quote[];
}

/** What an analysis (offline or a model's) makes of the answers: the parts of a report's result it decides. */
export interface AnalysisResult {
  questions: QuestionReport[];
  /** Themes across the whole interview. */
  themes: Theme[];
  /** Quotes a model gave that were not verbatim, dropped. */
  droppedQuotes: number;
  /** What the reader should know about how the result was made (e.g. which parts fell back to the offline analysis). */
  notes: string[];
}

export interface InviteCounts {
  total: number;
  pending: number;
  started: number;
  completed: number;
  abandoned: number;
  expired: number;
  revoked: number;
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
}
