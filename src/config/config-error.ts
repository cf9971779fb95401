/** Raised for a bad environment value; main.ts prints its message as one line and exits. */
export class ConfigError extends Error {}
