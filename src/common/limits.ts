/**
 * Bounds shared by several resources. Each resource keeps its own in `<resource>.limits.ts` (in src/domain/
 * when other features read them too); entities, DTOs (and through them the OpenAPI document) and domain
 * validation all read them from there.
 * Migrations are history and keep the literal values they were written with.
 */
export const COMMON_LIMITS = {
  /** Server-generated UUIDv7 identifiers (products, interviews, profiles, tokens). */
  uuid: 36,
  /** Any identifier a client sends (UUIDs, linkIDs): longer ones cannot exist. */
  idInput: 64,
  /** orgID and userID: chosen by the client, so longer than our own ids. */
  ownerId: 100,
  /** Absolute http(s) URLs (product page, image). */
  url: 2048,
} as const;

/**
 * A list asked for without `limit` returns everything, up to this many rows; a longer one answers 400
 * and asks to be paged (OWASP API4: no unbounded responses).
 */
export const LIST_MAX_ROWS = 100_000;

/** Identifiers per IN list: sent in chunks well under SQLite's 32,766-parameter limit. */
export const IN_CHUNK = 500;
