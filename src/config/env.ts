import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config-error';

/**
 * Reading environment variables into typed values. Every reader refuses a bad value with a ConfigError
 * naming the variable and the rule, which main.ts prints as one line before it exits. Used by AppConfig
 * for the settings every process shares and by each feature's own configuration (featureConfig).
 */
export type Env = Readonly<Record<string, string | undefined>>;

/** Quotes a configured value for an error message, short enough for one line. */
export const quote = (value: unknown): string => JSON.stringify(typeof value === 'string' && value.length > 100 ? `${value.slice(0, 100)}…` : value) ?? String(value);

export function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

export function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${env[name]}")`);
}

/** Text of at most `max` characters, without NUL characters or unpaired surrogates. */
export function readText(env: Env, name: string, fallback: string, max: number): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (raw.length > max || raw.includes('\0') || !raw.isWellFormed()) throw new ConfigError(`${name} must be text of at most ${max} characters`);
  return raw;
}

/** An absolute http(s) URL, without a trailing slash. */
export function readHttpUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  return raw.replace(/\/+$/, '');
}

/** One of the allowed words, compared without case. */
export function readChoice<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${env[name]}")`);
  return raw as T;
}

/**
 * A variable holding JSON, inline or as `@path/to/file.json`: its parsed value and how to name where it
 * came from in an error (the variable, and the file). Null when unset or blank. The parser's own message
 * is never quoted, only the position: it may quote the text, and with it a misplaced API key.
 */
export function readJsonVariable(env: Env, variable: string): { where: string; parsed: unknown } | null {
  const raw = env[variable]?.trim();
  if (!raw) return null;
  let where = variable;
  let text = raw;
  if (raw.startsWith('@')) {
    const path = resolve(raw.slice(1).trim());
    where = `${variable} (file ${path})`;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(`${where} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  try {
    return { where, parsed: JSON.parse(text) };
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new ConfigError(`${where} is not valid JSON${position ? ` (at position ${position})` : ''}`);
  }
}
