import { NotFoundException } from '@nestjs/common';
import type { Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ApiToken } from './api-token.entity';
import { TOKEN_PATTERN, hashToken } from './token-cache';
import { TokensService } from './tokens.service';

type FakeRepository = {
  create: jest.Mock;
  insert: jest.Mock;
  findOneBy: jest.Mock;
  update: jest.Mock;
  find: jest.Mock;
  count: jest.Mock;
};

const TOKEN = 'irs_' + 'k'.repeat(43);

function row(overrides: Partial<ApiToken> = {}): ApiToken {
  return {
    id: 'tok-1',
    name: 'ci',
    tokenHash: hashToken(TOKEN),
    isAdmin: false,
    orgID: 'org_acme',
    userID: null,
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
    revokedAt: null,
    ...overrides,
  };
}

describe(TokensService.name, () => {
  const START = 1_900_000_000_000;
  let now: number;
  let repo: FakeRepository;
  let sut: TokensService;

  function build(tokenCacheTtlMs: number): TokensService {
    return new TokensService(repo as unknown as Repository<ApiToken>, { tokenCacheTtlMs } as unknown as AppConfig);
  }

  beforeEach(() => {
    now = START;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    repo = {
      create: jest.fn((entity: Partial<ApiToken>) => entity),
      insert: jest.fn().mockResolvedValue(undefined),
      findOneBy: jest.fn().mockResolvedValue(null),
      update: jest.fn().mockResolvedValue(undefined),
      find: jest.fn().mockResolvedValue([]),
      count: jest.fn().mockResolvedValue(0),
    };
    sut = build(30_000);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  describe('create', () => {
    it('returns an irs_ token of 32 random bytes in base64url and the new row id', async () => {
      const created = await sut.create({ orgID: 'org_acme', name: 'ci' });

      expect(created.token).toMatch(/^irs_[A-Za-z0-9_-]{43}$/);
      expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(repo.insert).toHaveBeenCalledWith(expect.objectContaining({ id: created.id }));
    });

    it('stores only the sha256 hex of the token, never the token itself', async () => {
      const { token } = await sut.create({ orgID: 'org_acme', userID: 'user_42', name: 'ci' });

      expect(repo.insert).toHaveBeenCalledTimes(1);
      const stored = repo.insert.mock.calls[0][0] as ApiToken;
      expect(stored.tokenHash).toBe(hashToken(token));
      expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(repo.insert.mock.calls)).not.toContain(token);
      expect(JSON.stringify(repo.create.mock.calls)).not.toContain(token);
      expect(JSON.stringify(repo.insert.mock.calls)).not.toContain(token.slice(4));
    });

    it('stores the scope of a scoped token', async () => {
      await sut.create({ orgID: 'org_acme', userID: 'user_42', name: 'ci' });

      expect(repo.insert).toHaveBeenCalledWith(
        expect.objectContaining({ isAdmin: false, orgID: 'org_acme', userID: 'user_42', name: 'ci', revokedAt: null }),
      );
    });

    it('stores an admin token without org or user', async () => {
      await sut.create({ isAdmin: true });

      expect(repo.insert).toHaveBeenCalledWith(expect.objectContaining({ isAdmin: true, orgID: null, userID: null, name: null }));
    });

    it('issues a different token every time', async () => {
      const a = await sut.create({ userID: 'user_42' });
      const b = await sut.create({ userID: 'user_42' });

      expect(a.token).not.toBe(b.token);
      expect(a.id).not.toBe(b.id);
    });

    it('refuses a scoped token with neither org nor user and stores nothing', async () => {
      await expect(sut.create({})).rejects.toThrow('a scoped token needs an orgID and/or a userID');
      await expect(sut.create({ orgID: null, userID: null, name: 'x' })).rejects.toThrow(/orgID and\/or a userID/);
      expect(repo.insert).not.toHaveBeenCalled();
    });

    it('refuses a scope with whitespace at either end and stores nothing', async () => {
      await expect(sut.create({ orgID: 'orgB ' })).rejects.toThrow('orgID must not start or end with whitespace');
      await expect(sut.create({ orgID: 'orgB', userID: '\u00a0u' })).rejects.toThrow('userID must not start or end with whitespace');
      expect(repo.insert).not.toHaveBeenCalled();
    });
  });

  describe('verify', () => {
    it.each(['', 'irs_', 'irs_short', 'xyz_' + 'k'.repeat(43), 'irs_' + 'k'.repeat(44), 'irs_' + 'k'.repeat(42) + '=', ' ' + TOKEN])(
      'returns null for the malformed token %p without touching the repository',
      async (token) => {
        await expect(sut.verify(token)).resolves.toBeNull();
        expect(repo.findOneBy).not.toHaveBeenCalled();
      },
    );

    it('looks the token up by its hash and returns the principal', async () => {
      repo.findOneBy.mockResolvedValue(row({ userID: 'user_42' }));

      await expect(sut.verify(TOKEN)).resolves.toEqual({ tokenId: 'tok-1', isAdmin: false, orgID: 'org_acme', userID: 'user_42' });
      expect(repo.findOneBy).toHaveBeenCalledWith({ tokenHash: hashToken(TOKEN) });
    });

    it('returns null for an unknown token', async () => {
      await expect(sut.verify(TOKEN)).resolves.toBeNull();
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);
    });

    it('returns null for a revoked token', async () => {
      repo.findOneBy.mockResolvedValue(row({ revokedAt: new Date('2030-01-02T00:00:00.000Z') }));

      await expect(sut.verify(TOKEN)).resolves.toBeNull();
    });

    it('caches a positive result: the second call does not reach the repository', async () => {
      repo.findOneBy.mockResolvedValue(row());

      await expect(sut.verify(TOKEN)).resolves.toMatchObject({ tokenId: 'tok-1' });
      await expect(sut.verify(TOKEN)).resolves.toMatchObject({ tokenId: 'tok-1' });
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);
    });

    it('caches a negative result too', async () => {
      await expect(sut.verify(TOKEN)).resolves.toBeNull();
      repo.findOneBy.mockResolvedValue(row());

      await expect(sut.verify(TOKEN)).resolves.toBeNull();
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);
    });

    it('caches per token: another token still reaches the repository', async () => {
      repo.findOneBy.mockResolvedValue(row());
      await sut.verify(TOKEN);

      const other = 'irs_' + 'z'.repeat(43);
      await expect(sut.verify(other)).resolves.toBeNull(); // the fake row's hash does not match
      expect(repo.findOneBy).toHaveBeenCalledTimes(2);
      expect(repo.findOneBy).toHaveBeenLastCalledWith({ tokenHash: hashToken(other) });
    });

    it('asks the repository again once the cache entry has expired', async () => {
      repo.findOneBy.mockResolvedValue(row());
      await expect(sut.verify(TOKEN)).resolves.toMatchObject({ tokenId: 'tok-1' });

      // lru-cache's rule: an entry is stale once its age exceeds the ttl.
      now = START + 30_000;
      await expect(sut.verify(TOKEN)).resolves.toMatchObject({ tokenId: 'tok-1' });
      expect(repo.findOneBy).toHaveBeenCalledTimes(1);

      now = START + 30_001;
      repo.findOneBy.mockResolvedValue(row({ revokedAt: new Date() }));
      await expect(sut.verify(TOKEN)).resolves.toBeNull();
      expect(repo.findOneBy).toHaveBeenCalledTimes(2);
    });

    it('caches nothing when tokenCacheTtlMs is 0', async () => {
      sut = build(0);
      repo.findOneBy.mockResolvedValue(row());

      await expect(sut.verify(TOKEN)).resolves.toMatchObject({ tokenId: 'tok-1' });
      repo.findOneBy.mockResolvedValue(null);
      await expect(sut.verify(TOKEN)).resolves.toBeNull();
      await expect(sut.verify(TOKEN)).resolves.toBeNull();
      expect(repo.findOneBy).toHaveBeenCalledTimes(3);
    });

    it('verifies a token issued by create', async () => {
      const { id, token } = await sut.create({ orgID: 'org_acme' });
      const stored = repo.insert.mock.calls[0][0] as ApiToken;
      repo.findOneBy.mockImplementation(async (where: { tokenHash: string }) => (where.tokenHash === stored.tokenHash ? stored : null));

      expect(token).toMatch(TOKEN_PATTERN);
      await expect(sut.verify(token)).resolves.toEqual({ tokenId: id, isAdmin: false, orgID: 'org_acme', userID: null });
    });
  });

  describe('revoke', () => {
    it('marks the row revoked and evicts the cache: the next verify hits the repository and returns null', async () => {
      const active = row();
      repo.findOneBy.mockResolvedValue(active);
      await expect(sut.verify(TOKEN)).resolves.toMatchObject({ tokenId: 'tok-1' });

      await expect(sut.revoke('tok-1')).resolves.toBeUndefined();
      expect(repo.update).toHaveBeenCalledWith({ id: 'tok-1' }, { revokedAt: expect.any(Date) });

      repo.findOneBy.mockResolvedValue(row({ revokedAt: new Date() }));
      await expect(sut.verify(TOKEN)).resolves.toBeNull();
      // verify, revoke's lookup by id, verify again
      expect(repo.findOneBy).toHaveBeenCalledTimes(3);
      expect(repo.findOneBy).toHaveBeenLastCalledWith({ tokenHash: hashToken(TOKEN) });
    });

    it('does not overwrite the revocation time of an already revoked token', async () => {
      repo.findOneBy.mockResolvedValue(row({ revokedAt: new Date('2030-01-02T00:00:00.000Z') }));

      await expect(sut.revoke('tok-1')).resolves.toBeUndefined();
      expect(repo.update).not.toHaveBeenCalled();
    });

    it('throws NotFoundException for an unknown id', async () => {
      await expect(sut.revoke('nope')).rejects.toThrow(NotFoundException);
      await expect(sut.revoke('nope')).rejects.toThrow('no token with id nope');
      expect(repo.update).not.toHaveBeenCalled();
    });
  });

  describe('list', () => {
    it('returns summaries with ISO timestamps and no hash, oldest first', async () => {
      repo.find.mockResolvedValue([row(), row({ id: 'tok-2', isAdmin: true, orgID: null, revokedAt: new Date('2030-01-02T00:00:00.000Z') })]);

      await expect(sut.list()).resolves.toEqual([
        { id: 'tok-1', name: 'ci', isAdmin: false, orgID: 'org_acme', userID: null, createdAt: '2030-01-01T00:00:00.000Z', revokedAt: null },
        { id: 'tok-2', name: 'ci', isAdmin: true, orgID: null, userID: null, createdAt: '2030-01-01T00:00:00.000Z', revokedAt: '2030-01-02T00:00:00.000Z' },
      ]);
      expect(repo.find).toHaveBeenCalledWith({ order: { createdAt: 'ASC', id: 'ASC' } });
    });
  });
});
