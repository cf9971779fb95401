import { BadRequestException, ConflictException, HttpException } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { ConversationTurn, Invite, UserInfo } from './invite.entity';
import { INVITE_STATUSES, InviteStatus, TRANSITIONS } from './invite-status';
import { InviteLifecycleService } from './invite-lifecycle.service';
import { INVITE_LIMITS } from './invite.limits';
import { InvalidInviteTransitionException, InviteNotFoundException } from './invites.errors';

const MAX_TRANSCRIPT_BYTES = INVITE_LIMITS.transcriptBytes;

type FakeRepository = {
  findOne: jest.Mock;
  update: jest.Mock;
};

type FakeDataSource = {
  options: { type: string };
  transaction: jest.Mock;
};

const CREATED_AT = new Date('2020-01-01T00:00:00.000Z');

function invite(overrides: Partial<Invite> = {}): Invite {
  return {
    linkID: 'link-1',
    interviewID: 'interview-1',
    productID: 'product-1',
    orgID: 'org_acme',
    userInfo: null,
    status: 'pending',
    createdAt: CREATED_AT,
    completedOn: null,
    expiresAt: new Date('2999-01-01T00:00:00.000Z'),
    conversation: [],
    updatedAt: CREATED_AT,
    ...overrides,
  };
}

/** Settles a call as a promise even if it throws synchronously, so validation can be checked on its own. */
function settle<T>(call: () => Promise<T>): Promise<T> {
  return Promise.resolve().then(call);
}

/** The HTTP status of the exception a promise rejects with. */
async function statusOf(promise: Promise<unknown>): Promise<number> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpException);
  return (error as HttpException).getStatus();
}

describe(InviteLifecycleService.name, () => {
  let stored: Record<string, Invite>;
  let repo: FakeRepository;
  let em: { getRepository: jest.Mock };
  let fakeDataSource: FakeDataSource;
  let sut: InviteLifecycleService;

  function seed(overrides: Partial<Invite> = {}): Invite {
    const row = invite(overrides);
    stored[row.linkID] = row;
    return row;
  }

  /** A copy of the stored row, so that assertions see only what was written through `update`. */
  function row(linkID = 'link-1'): Invite {
    return structuredClone(stored[linkID]);
  }

  beforeEach(() => {
    stored = {};
    repo = {
      findOne: jest.fn(async ({ where }: { where: { linkID: string } }) => {
        const found = stored[where.linkID];
        return found ? structuredClone(found) : null;
      }),
      update: jest.fn(async (where: { linkID: string }, changes: Partial<Invite>) => Object.assign(stored[where.linkID], changes)),
    };
    em = { getRepository: jest.fn(() => repo) };
    fakeDataSource = {
      options: { type: 'better-sqlite3' },
      transaction: jest.fn(async (cb: (manager: typeof em) => Promise<unknown>) => cb(em)),
    };
    sut = new InviteLifecycleService(fakeDataSource as unknown as DataSource);
  });

  describe('TRANSITIONS', () => {
    it('allows exactly pending → started | expired and started → completed | expired', () => {
      expect(TRANSITIONS).toEqual({
        pending: ['started', 'expired'],
        started: ['completed', 'expired'],
        completed: [],
        expired: [],
      });
    });
  });

  describe('allowed transitions', () => {
    it('start moves a pending invite to started and stores it', async () => {
      seed({ status: 'pending' });

      await expect(sut.start('link-1')).resolves.toMatchObject({ linkID: 'link-1', status: 'started' });

      expect(row().status).toBe('started');
      expect(repo.update).toHaveBeenCalledTimes(1);
      expect(repo.update).toHaveBeenCalledWith({ linkID: 'link-1' }, expect.objectContaining({ status: 'started' }));
    });

    it('start without userInfo leaves the interviewee unknown', async () => {
      seed({ status: 'pending' });

      await expect(sut.start('link-1')).resolves.toMatchObject({ userInfo: null });

      expect(row().userInfo).toBeNull();
    });

    it('complete moves a started invite to completed and records the given completion time', async () => {
      seed({ status: 'started' });
      const at = new Date('2031-02-03T04:05:06.000Z');

      await expect(sut.complete('link-1', at)).resolves.toMatchObject({ status: 'completed', completedOn: at });

      expect(row().status).toBe('completed');
      expect(row().completedOn).toEqual(at);
      expect(repo.update).toHaveBeenCalledWith({ linkID: 'link-1' }, expect.objectContaining({ status: 'completed', completedOn: at }));
    });

    it('complete without a time records the current time', async () => {
      seed({ status: 'started' });
      const before = Date.now();

      const completed = await sut.complete('link-1');

      const after = Date.now();
      expect(completed.completedOn).toBeInstanceOf(Date);
      expect(completed.completedOn!.getTime()).toBeGreaterThanOrEqual(before);
      expect(completed.completedOn!.getTime()).toBeLessThanOrEqual(after);
      expect(row().status).toBe('completed');
      expect(row().completedOn).toEqual(completed.completedOn);
      expect(repo.update).toHaveBeenCalledWith({ linkID: 'link-1' }, expect.objectContaining({ status: 'completed' }));
    });

    it.each<InviteStatus>(['pending', 'started'])('expire moves a %s invite to expired and stores it', async (from) => {
      seed({ status: from });

      await expect(sut.expire('link-1')).resolves.toMatchObject({ status: 'expired', completedOn: null });

      expect(row().status).toBe('expired');
      expect(repo.update).toHaveBeenCalledWith({ linkID: 'link-1' }, expect.objectContaining({ status: 'expired' }));
    });

    it('chains pending → started → completed on the same row, refreshing updatedAt', async () => {
      seed({ status: 'pending' });

      await expect(sut.start('link-1')).resolves.toMatchObject({ status: 'started' });
      await expect(sut.complete('link-1')).resolves.toMatchObject({ status: 'completed' });

      expect(row().status).toBe('completed');
      expect(row().updatedAt.getTime()).toBeGreaterThan(CREATED_AT.getTime());
      expect(repo.update).toHaveBeenCalledTimes(2);
    });

    // The row lock on MySQL (FOR_UPDATE) is proven by the concurrent-reply e2e test on MariaDB.
    it('reads and writes the row in one transaction, without a row lock on SQLite', async () => {
      seed({ status: 'pending' });

      await expect(sut.start('link-1')).resolves.toMatchObject({ status: 'started' });

      expect(fakeDataSource.transaction).toHaveBeenCalledTimes(1);
      expect(em.getRepository).toHaveBeenCalledWith(Invite);
      expect(repo.findOne).toHaveBeenCalledWith({ where: { linkID: 'link-1' } });
    });
  });

  describe('refused transitions', () => {
    const act: Record<Exclude<InviteStatus, 'pending'>, (linkID: string) => Promise<Invite>> = {
      started: (linkID) => sut.start(linkID),
      completed: (linkID) => sut.complete(linkID, new Date('2031-01-01T00:00:00.000Z')),
      expired: (linkID) => sut.expire(linkID),
    };
    const targets = Object.keys(act) as Exclude<InviteStatus, 'pending'>[];
    const refused = INVITE_STATUSES.flatMap((from) =>
      targets.filter((to) => !(TRANSITIONS[from] as readonly InviteStatus[]).includes(to)).map((to) => [from, to] as const),
    );

    it('covers every pair the map does not allow', () => {
      expect(refused).toEqual([
        ['pending', 'completed'],
        ['started', 'started'],
        ['completed', 'started'],
        ['completed', 'completed'],
        ['completed', 'expired'],
        ['expired', 'started'],
        ['expired', 'completed'],
        ['expired', 'expired'],
      ]);
    });

    it.each(refused)('refuses %s → %s with a 409 and leaves the row unchanged', async (from, to) => {
      const before = seed({ status: from, conversation: [{ role: 'system', content: 'hello' }] });
      const snapshot = structuredClone(before);

      await expect(act[to]('link-1')).rejects.toThrow(InvalidInviteTransitionException);
      await expect(act[to]('link-1')).rejects.toThrow(ConflictException);
      await expect(act[to]('link-1')).rejects.toThrow(`invite link-1 cannot go from ${from} to ${to}`);
      await expect(statusOf(act[to]('link-1'))).resolves.toBe(409);

      expect(repo.update).not.toHaveBeenCalled();
      expect(row()).toEqual(snapshot);
    });

    it('does not apply userInfo passed to a refused start', async () => {
      seed({ status: 'completed', userInfo: { email: 'a@example.com', name: null, occupation: null } });

      await expect(sut.start('link-1', { name: 'Ana' })).rejects.toThrow(InvalidInviteTransitionException);

      expect(repo.update).not.toHaveBeenCalled();
      expect(row().userInfo).toEqual({ email: 'a@example.com', name: null, occupation: null });
    });
  });

  describe('appendTurns', () => {
    it('appends turns in order across two calls', async () => {
      seed({ status: 'started' });
      const first: ConversationTurn[] = [
        { role: 'system', content: 'You are interviewing a user.' },
        { role: 'interviewer', content: 'How do you take notes?' },
      ];
      const second: ConversationTurn[] = [
        { role: 'interviewee', content: 'On paper.' },
        { role: 'interviewer', content: 'Why?' },
      ];

      await expect(sut.appendTurns('link-1', first)).resolves.toMatchObject({ conversation: first });
      await expect(sut.appendTurns('link-1', second)).resolves.toMatchObject({ conversation: [...first, ...second] });

      expect(row().conversation).toEqual([...first, ...second]);
      expect(row().status).toBe('started');
      expect(repo.update).toHaveBeenCalledTimes(2);
      expect(repo.update).toHaveBeenLastCalledWith({ linkID: 'link-1' }, expect.objectContaining({ conversation: [...first, ...second] }));
    });

    it('refuses fields other than role and content, like an HTTP body', async () => {
      seed({ status: 'started' });
      const turn = { role: 'interviewee', content: 'Yes.', extra: 'dropped' } as ConversationTurn;

      await expect(sut.appendTurns('link-1', [turn])).rejects.toThrow('unknown field "turns.0.extra" is not allowed');

      expect(row().conversation).toEqual([]);
    });

    it.each<InviteStatus>(['pending', 'completed', 'expired'])('refuses turns for an invite that is %s with a 409, leaving the row unchanged', async (status) => {
      seed({ status });
      const turns: ConversationTurn[] = [{ role: 'interviewee', content: 'hi' }];

      await expect(sut.appendTurns('link-1', turns)).rejects.toThrow(ConflictException);
      await expect(sut.appendTurns('link-1', turns)).rejects.toThrow(`invite link-1 is ${status}: turns can only be added to a started invite`);
      await expect(statusOf(sut.appendTurns('link-1', turns))).resolves.toBe(409);

      expect(repo.update).not.toHaveBeenCalled();
      expect(row().conversation).toEqual([]);
      expect(row().status).toBe(status);
    });

    it.each(['user', 'assistant', '', 'Interviewer'])('refuses the role %j with a 400 without writing', async (role) => {
      seed({ status: 'started' });

      await expect(settle(() => sut.appendTurns('link-1', [{ role: 'interviewer', content: 'ok' }, { role, content: 'hi' }]))).rejects.toThrow(
        BadRequestException,
      );
      await expect(settle(() => sut.appendTurns('link-1', [{ role, content: 'hi' }]))).rejects.toThrow(
        'turns.0.role must be one of interviewer, interviewee, system',
      );

      expect(repo.update).not.toHaveBeenCalled();
      expect(row().conversation).toEqual([]);
    });

    it.each([
      ['a NUL character', 'before\u0000after'],
      ['a lone high surrogate', 'before\uD800after'],
      ['a lone low surrogate', 'before\uDC00after'],
    ])('refuses content with %s with a 400 without writing', async (_what, content) => {
      seed({ status: 'started' });

      await expect(settle(() => sut.appendTurns('link-1', [{ role: 'interviewee', content }]))).rejects.toThrow(BadRequestException);
      await expect(settle(() => sut.appendTurns('link-1', [{ role: 'interviewee', content }]))).rejects.toThrow(
        'turns.0.content must not contain NUL characters or unpaired surrogates',
      );

      expect(repo.update).not.toHaveBeenCalled();
      expect(row().conversation).toEqual([]);
    });

    // Regression: validation once ran before a promise existed and threw synchronously.
    it('reports invalid turns as a rejected promise, like every other method', async () => {
      seed({ status: 'started' });

      await expect(sut.appendTurns('link-1', [{ role: 'interviewee', content: 'bad\u0000' }])).rejects.toThrow(BadRequestException);
    });

    it('keeps emoji, right-to-left text and combining marks exactly', async () => {
      seed({ status: 'started' });
      const turns: ConversationTurn[] = [
        { role: 'interviewee', content: 'I love it 👩🏽‍💻🎉 — really' },
        { role: 'interviewer', content: 'مرحبا بالعالم שלום' },
        { role: 'interviewee', content: 'Cafe\u0301 n\u0303 Z̤͔ͧ̑̓' },
      ];

      await expect(sut.appendTurns('link-1', turns)).resolves.toMatchObject({ conversation: turns });

      const saved = row().conversation;
      expect(saved).toEqual(turns);
      expect(saved.map((t) => t.content.length)).toEqual(turns.map((t) => t.content.length));
      expect(saved[2].content).not.toBe(saved[2].content.normalize('NFC'));
    });

    it('accepts a 100 KB turn', async () => {
      seed({ status: 'started' });
      const content = 'x'.repeat(100 * 1024);

      await expect(sut.appendTurns('link-1', [{ role: 'interviewee', content }])).resolves.toMatchObject({ status: 'started' });

      expect(row().conversation).toHaveLength(1);
      expect(row().conversation[0].content).toBe(content);
    });

    it('refuses a turn that would take the transcript past MAX_TRANSCRIPT_BYTES, without writing', async () => {
      const existing: ConversationTurn[] = [{ role: 'interviewee', content: 'x'.repeat(MAX_TRANSCRIPT_BYTES - 100) }];
      seed({ status: 'started', conversation: existing });

      await expect(sut.appendTurns('link-1', [{ role: 'interviewer', content: 'y'.repeat(200) }])).rejects.toThrow(BadRequestException);

      expect(repo.update).not.toHaveBeenCalled();
      expect(row().conversation).toHaveLength(1);
    });
  });

  describe('setUserInfo and start with userInfo', () => {
    const empty: UserInfo = { email: null, name: null, occupation: null };

    it('merges partial info: email then name keeps both', async () => {
      seed({ status: 'pending' });

      await expect(sut.setUserInfo('link-1', { email: 'ana@example.com' })).resolves.toMatchObject({
        userInfo: { ...empty, email: 'ana@example.com' },
      });
      await expect(sut.setUserInfo('link-1', { name: 'Ana Souza' })).resolves.toMatchObject({
        userInfo: { email: 'ana@example.com', name: 'Ana Souza', occupation: null },
      });

      expect(row().userInfo).toEqual({ email: 'ana@example.com', name: 'Ana Souza', occupation: null });
      expect(row().status).toBe('pending');
      expect(repo.update).toHaveBeenLastCalledWith(
        { linkID: 'link-1' },
        expect.objectContaining({ userInfo: { email: 'ana@example.com', name: 'Ana Souza', occupation: null } }),
      );
    });

    it('null clears one field and leaves the others', async () => {
      seed({ status: 'started', userInfo: { email: 'ana@example.com', name: 'Ana', occupation: 'nurse' } });

      await expect(sut.setUserInfo('link-1', { email: null })).resolves.toMatchObject({
        userInfo: { email: null, name: 'Ana', occupation: 'nurse' },
      });

      expect(row().userInfo).toEqual({ email: null, name: 'Ana', occupation: 'nurse' });
    });

    it('start with userInfo merges it into what is already known', async () => {
      seed({ status: 'pending', userInfo: { email: 'ana@example.com', name: null, occupation: null } });

      await expect(sut.start('link-1', { name: 'Ana', occupation: 'nurse' })).resolves.toMatchObject({
        status: 'started',
        userInfo: { email: 'ana@example.com', name: 'Ana', occupation: 'nurse' },
      });

      expect(row().status).toBe('started');
      expect(row().userInfo).toEqual({ email: 'ana@example.com', name: 'Ana', occupation: 'nurse' });
    });

    it.each<InviteStatus>(['completed', 'expired'])('refuses to change the interviewee of an invite that is %s with a 409', async (status) => {
      const userInfo: UserInfo = { email: 'ana@example.com', name: null, occupation: null };
      seed({ status, userInfo });

      await expect(sut.setUserInfo('link-1', { name: 'Ana' })).rejects.toThrow(ConflictException);
      await expect(sut.setUserInfo('link-1', { name: 'Ana' })).rejects.toThrow(`invite link-1 is ${status}: its interviewee can no longer change`);
      await expect(statusOf(sut.setUserInfo('link-1', { name: 'Ana' }))).resolves.toBe(409);

      expect(repo.update).not.toHaveBeenCalled();
      expect(row().userInfo).toEqual(userInfo);
    });

    it.each(['email', 'name', 'occupation'] as const)('refuses a NUL character in %s with a 400 without writing', async (key) => {
      seed({ status: 'pending' });

      await expect(sut.setUserInfo('link-1', { [key]: 'an\u0000a' })).rejects.toThrow(BadRequestException);
      await expect(sut.setUserInfo('link-1', { [key]: 'an\u0000a' })).rejects.toThrow(
        `${key} must not contain NUL characters or unpaired surrogates`,
      );

      expect(repo.update).not.toHaveBeenCalled();
      expect(row().userInfo).toBeNull();
    });

    it('refuses a NUL character passed to start, leaving the invite pending', async () => {
      seed({ status: 'pending' });

      await expect(sut.start('link-1', { name: 'an\u0000a' })).rejects.toThrow(BadRequestException);

      expect(repo.update).not.toHaveBeenCalled();
      expect(row().status).toBe('pending');
      expect(row().userInfo).toBeNull();
    });
  });

  describe('unknown invite', () => {
    const calls: [string, (s: InviteLifecycleService) => Promise<Invite>][] = [
      ['start', (s) => s.start('missing')],
      ['start with userInfo', (s) => s.start('missing', { name: 'Ana' })],
      ['appendTurns', (s) => s.appendTurns('missing', [{ role: 'interviewee', content: 'hi' }])],
      ['setUserInfo', (s) => s.setUserInfo('missing', { name: 'Ana' })],
      ['complete', (s) => s.complete('missing')],
      ['expire', (s) => s.expire('missing')],
    ];

    it.each(calls)('%s rejects with a 404 naming the link', async (_name, call) => {
      seed({ linkID: 'link-1', status: 'started' });

      await expect(call(sut)).rejects.toThrow(InviteNotFoundException);
      await expect(call(sut)).rejects.toThrow('invite "missing" not found');
      await expect(statusOf(call(sut))).resolves.toBe(404);

      expect(repo.update).not.toHaveBeenCalled();
      expect(row('link-1').status).toBe('started');
    });
  });
});
