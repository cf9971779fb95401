import { HttpException } from '@nestjs/common';
import { readInterviewersConfig } from './interviewers.config';
import { DefaultInterviewer } from './default-interviewer';
import { InterviewersService } from './interviewers.service';
import { UnknownInterviewerException } from './interviewers.errors';
import { OpenAiInterviewer } from './openai-interviewer';

const AGENTS = {
  'gpt-4o': { kind: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o', apiKeyEnv: 'TEST_OPENAI_KEY', description: 'GPT-4o, for English interviews' },
  'local.llama': { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b' },
};

/** The error a call throws. */
function errorOf(call: () => unknown): HttpException {
  try {
    call();
  } catch (error) {
    return error as HttpException;
  }
  throw new Error('expected the call to throw');
}

describe(InterviewersService.name, () => {
  const sut = new InterviewersService(readInterviewersConfig({ INTERVIEWER_AGENTS: JSON.stringify(AGENTS), TEST_OPENAI_KEY: 'sk-registry-test' }));

  it('lists the built-in agent first, then the configured ones in their order', () => {
    expect(sut.list()).toEqual([
      { interviewer: 'default', kind: 'builtin', description: expect.stringMatching(/questions written in the guidelines/) },
      { interviewer: 'gpt-4o', kind: 'openai', description: 'GPT-4o, for English interviews' },
      { interviewer: 'local.llama', kind: 'openai', description: null },
    ]);
  });

  it('never lists a key, an endpoint or a model', () => {
    const listed = JSON.stringify(sut.list());
    for (const secretish of ['sk-registry-test', 'api.openai.com', '11434', 'llama3.1:8b']) expect(listed).not.toContain(secretish);
  });

  it('gives each name its agent', () => {
    expect(sut.get('default')).toBeInstanceOf(DefaultInterviewer);
    expect(sut.get('gpt-4o')).toBeInstanceOf(OpenAiInterviewer);
    expect(sut.get('local.llama')).toBeInstanceOf(OpenAiInterviewer);
    expect(sut.get('GPT-4O')).toBeUndefined();
    expect(sut.get('')).toBeUndefined();
  });

  it('has only the built-in agent when none is configured', () => {
    expect(new InterviewersService(readInterviewersConfig({})).list().map((a) => a.interviewer)).toEqual(['default']);
  });

  describe('assertKnown', () => {
    it('accepts every known name', () => {
      for (const name of ['default', 'gpt-4o', 'local.llama']) expect(() => sut.assertKnown(name)).not.toThrow();
    });

    it('refuses another name with 400, listing the known ones', () => {
      const error = errorOf(() => sut.assertKnown('gpt-5'));
      expect(error).toBeInstanceOf(UnknownInterviewerException);
      expect(error.getStatus()).toBe(400);
      expect(error.message).toBe(
        'interviewer "gpt-5" is not a known agent; known agents: default, gpt-4o, local.llama (GET /v1/interviewers/getList)',
      );
    });

    it('keeps the message within the documented 1,000 characters with many long names', () => {
      const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${String(i).padStart(3, '0')}${'a'.repeat(97)}`, AGENTS['local.llama']]));
      const big = new InterviewersService(readInterviewersConfig({ INTERVIEWER_AGENTS: JSON.stringify(many) }));
      const { message } = errorOf(() => big.assertKnown('z'.repeat(100)));
      expect(message.length).toBeLessThanOrEqual(1000);
      expect(message).toMatch(/^interviewer "z{100}" is not a known agent; known agents: default, 000a+, .* and \d+ more \(GET \/v1\/interviewers\/getList\)$/);
    });
  });
});
