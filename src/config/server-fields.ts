import { inspect } from 'node:util';
import { ConfigError } from './config-error';
import { Env, quote } from './env';

/**
 * The fields every OpenAI-compatible server's JSON configuration shares (INTERVIEWER_AGENTS' agents,
 * TRANSCRIBER, SPEAKER): each reader refuses a bad value with a ConfigError that starts with `where`
 * (the variable, its file, the agent) and never quotes a key.
 */

/**
 * A value that must never reach a log, an error message or a response: JSON and util.inspect show a
 * placeholder, and only reveal() gives the value (to the one place that sends it).
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return '[secret]';
  }

  toString(): string {
    return '[secret]';
  }

  [inspect.custom](): string {
    return 'Secret([secret])';
  }
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** What an HTTP header value may carry: a key with spaces or line breaks would fail on every call. */
const BEARER_TOKEN = /^[\x21-\x7e]+$/;

/** Refuses a field not in `fields`, with a hint when it looks like a key written where its variable's name goes. */
export function checkFields(where: string, value: Json, fields: readonly string[]): void {
  for (const field of Object.keys(value)) {
    if (!fields.includes(field)) {
      const hint = /key|token|secret/i.test(field) ? ' (put the key in an environment variable and name that variable in apiKeyEnv)' : '';
      throw new ConfigError(`${where}: unknown field ${quote(field)}${hint}; allowed: ${fields.join(', ')}`);
    }
  }
}

/** baseUrl: an absolute http(s) URL without query, fragment or credentials; returned without a trailing slash. */
export function readBaseUrl(where: string, value: unknown, example: string): string {
  const rule = `${where}: baseUrl must be an absolute http(s) URL without query, fragment or credentials, like "${example}"`;
  if (typeof value !== 'string' || /\s/.test(value)) throw new ConfigError(rule);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(rule);
  }
  // Credentials in the URL would travel outside apiKeyEnv's protection; a query or fragment would end up before the path.
  if (!['http:', 'https:'].includes(url.protocol) || !url.hostname || url.username || url.password || url.search || url.hash) throw new ConfigError(rule);
  return value.replace(/\/+$/, '');
}

/** A whole number within `bounds`; its default when missing. */
export function readWholeNumber(where: string, field: string, value: unknown, bounds: { min: number; max: number; default: number }): number {
  if (value === undefined || value === null) return bounds.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw new ConfigError(`${where}: ${field} must be a whole number from ${bounds.min} to ${bounds.max} (got ${quote(value)})`);
  }
  return value;
}

/** apiKeyEnv: the name of the variable holding the key, which must be set; null without one (no Authorization header). */
export function readApiKey(env: Env, where: string, value: unknown): Secret | null {
  if (value === undefined || value === null) return null;
  // Never quoted: a key pasted here by mistake must not end up in the error line.
  if (typeof value !== 'string' || !ENV_NAME.test(value)) {
    throw new ConfigError(`${where}: apiKeyEnv must be the name of an environment variable (letters, digits and "_"), not the key itself`);
  }
  const key = env[value]?.trim();
  if (!key) throw new ConfigError(`${where}: apiKeyEnv names ${value}, which is not set`);
  if (!BEARER_TOKEN.test(key)) throw new ConfigError(`${where}: the value of ${value} is not a usable API key (printable characters without spaces)`);
  return new Secret(key);
}
