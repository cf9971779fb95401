import { BadRequestException } from '@nestjs/common';

/** A codebook names a question the interview does not ask (400), listing the ones it does. */
export class UnknownQuestionException extends BadRequestException {
  constructor(field: string, questionIndex: number, count: number) {
    super(`${field} ${questionIndex} is not a question of this interview: interviews/getQuestions lists ${count === 0 ? 'none' : `questions 0 to ${count - 1}`}`);
  }
}

/** The same question twice in a codebook (400). */
export class RepeatedQuestionException extends BadRequestException {
  constructor(field: string, questionIndex: number) {
    super(`${field} repeats questionIndex ${questionIndex}: give each question once, with all its themes`);
  }
}

/** Two themes of a question with the same label (400): a report could not tell them apart. */
export class RepeatedThemeException extends BadRequestException {
  constructor(field: string, theme: string) {
    super(`${field} holds the theme ${JSON.stringify(theme)} twice (labels are compared without regard to case): merge them into one`);
  }
}
