import { BadRequestException, ConflictException, Injectable, UnprocessableEntityException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { LessThan, Repository } from 'typeorm';
import { isDuplicateKey } from '../database/database-errors';
import { IDEMPOTENCY_KEY_MAX, IdempotencyRecord } from './idempotency-record.entity';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How often the HTTP service deletes expired keys (IdempotencySweeper). */
export const IDEMPOTENCY_SWEEP_EVERY_MS = 10 * 60 * 1000;
/** A first request still "running" after this long is taken to have died with its process. */
export const IN_FLIGHT_TIMEOUT_MS = 5 * 60 * 1000;
const KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX}}$`);

export type Claim = { kind: 'new' } | { kind: 'replay'; status: number; body: unknown };

/** A request that carries an Idempotency-Key (see @IdempotencyKey()). */
export interface IdempotentCall {
  tokenId: string;
  key: string;
  /** SHA-256 of the route and its parameters: the same key with other parameters is 422. */
  requestHash: string;
  /** The route's success status, stored with the body. */
  status: number;
  /** Sets Idempotent-Replayed: true on the response. */
  markReplayed(): void;
}

export function validateIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new BadRequestException(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters`);
}

export function idempotencyRequestHash(route: string, params: unknown): string {
  return createHash('sha256').update(route).update('\n').update(canonical(params)).digest('hex');
}

/** Canonical JSON: object keys sorted, so {a,b} and {b,a} are the same parameters. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Idempotency-Key records, stored in the database so they hold across restarts and across
 * instances. The (token, key) primary key makes the first claim atomic: a second request with the
 * same key either replays the stored success, or gets 409 while the first is still running, or 422
 * when its parameters differ.
 */
@Injectable()
export class IdempotencyService {
  constructor(@InjectRepository(IdempotencyRecord) private readonly records: Repository<IdempotencyRecord>) {}

  /**
   * Runs `handler` once per key: without a key simply runs it; with one, replays the first success
   * without running it, or answers 422 / 409 (see claim); a handler that fails releases the key so that
   * a corrected retry runs.
   */
  async run<T>(call: IdempotentCall | undefined, handler: () => Promise<T>): Promise<T> {
    if (!call) return handler();
    const claim = await this.claim(call.tokenId, call.key, call.requestHash);
    if (claim.kind === 'replay') {
      call.markReplayed();
      return claim.body as T;
    }
    let body: T;
    try {
      body = await handler();
    } catch (error) {
      await this.release(call.tokenId, call.key).catch(() => undefined);
      throw error;
    }
    await this.complete(call.tokenId, call.key, call.status, body);
    return body;
  }

  async claim(tokenId: string, key: string, requestHash: string, now = new Date()): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.records.insert({
          tokenId,
          key,
          requestHash,
          responseStatus: null,
          responseBody: null,
          createdAt: now,
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        });
        return { kind: 'new' };
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      const existing = await this.records.findOneBy({ tokenId, key });
      if (!existing) continue; // released meanwhile: try to claim again
      const abandoned = existing.responseStatus === null && now.getTime() - existing.createdAt.getTime() > IN_FLIGHT_TIMEOUT_MS;
      if (existing.expiresAt.getTime() <= now.getTime() || abandoned) {
        await this.records.delete({ tokenId, key, createdAt: existing.createdAt });
        continue;
      }
      if (existing.requestHash !== requestHash) {
        throw new UnprocessableEntityException('this Idempotency-Key was already used with different parameters');
      }
      if (existing.responseStatus === null) {
        throw new ConflictException('a request with this Idempotency-Key is still in progress; retry later');
      }
      return { kind: 'replay', status: existing.responseStatus, body: JSON.parse(existing.responseBody ?? 'null') };
    }
    throw new ConflictException('a request with this Idempotency-Key is still in progress; retry later');
  }

  async complete(tokenId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.records.update({ tokenId, key }, { responseStatus: status, responseBody: JSON.stringify(body) });
  }

  /** The first request failed: forget the key so that a retry can run. */
  async release(tokenId: string, key: string): Promise<void> {
    await this.records.delete({ tokenId, key });
  }

  /** Deletes the keys expired as of `now`. */
  async sweep(now = new Date()): Promise<void> {
    await this.records.delete({ expiresAt: LessThan(now) });
  }
}
