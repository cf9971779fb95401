import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import { InterviewsService } from '../interviews/interviews.service';
import type { CodebookQuestion } from './codebook.types';
import { RepeatedQuestionException, RepeatedThemeException, UnknownQuestionException } from './codebooks.errors';
import { CodebooksRepository } from './codebooks.repository';
import { CodebookDto, CodebookUpdatedDto, SetCodebookDto } from './dto/codebook.dto';

/**
 * Codebooks: the themes a team wants an interview's answers coded with. Visibility and writes follow the
 * interview's (a caller who can see the interview can set its codebook; others get 404). Reports read
 * the codebook when they run (forReport); reports/toCodebook writes one from a report (replace).
 */
@Injectable()
export class CodebooksService {
  constructor(
    private readonly codebooks: CodebooksRepository,
    private readonly interviews: InterviewsService,
  ) {}

  async set(dto: SetCodebookDto, principal: Principal): Promise<CodebookUpdatedDto> {
    const { interview, questions } = await this.interviews.questionsFor(principal, dto.interviewID);
    const seen = new Set<number>();
    const codebook: CodebookQuestion[] = [];
    dto.questions.forEach((q, i) => {
      const field = `questions.${i}.questionIndex`;
      if (q.questionIndex >= questions.length) throw new UnknownQuestionException(field, q.questionIndex, questions.length);
      if (seen.has(q.questionIndex)) throw new RepeatedQuestionException(field, q.questionIndex);
      seen.add(q.questionIndex);
      const labels = new Set<string>();
      for (const theme of q.themes) {
        const key = theme.theme.trim().toLowerCase();
        if (labels.has(key)) throw new RepeatedThemeException(`questions.${i}.themes`, theme.theme);
        labels.add(key);
      }
      codebook.push({
        questionIndex: q.questionIndex,
        themes: q.themes.map((t) => ({ theme: t.theme, description: t.description?.trim() ? t.description : null, examples: t.examples ?? [] })),
      });
    });
    await this.replace(interview.interviewID, codebook);
    return { interviewID: interview.interviewID, status: 'updated' };
  }

  async get(interviewID: string, principal: Principal): Promise<CodebookDto> {
    const { interview } = await this.interviews.requireVisible(principal, interviewID);
    return { interviewID: interview.interviewID, questions: await this.codebooks.questionsOf(interview.interviewID) };
  }

  /** The codebook a report runs with: what the service itself reads (no caller). */
  forReport(interviewID: string): Promise<CodebookQuestion[]> {
    return this.codebooks.questionsOf(interviewID);
  }

  /** Stores a codebook the caller was allowed to make (questions in order, themes without repeats); a question without themes is left out. */
  async replace(interviewID: string, questions: CodebookQuestion[]): Promise<void> {
    const kept = questions.filter((q) => q.themes.length > 0).sort((a, b) => a.questionIndex - b.questionIndex);
    await this.codebooks.replace(interviewID, kept, new Date());
  }
}
