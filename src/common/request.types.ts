export {};

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by RequestContextMiddleware from X-Request-Id, or generated. */
      id: string;
    }
  }
}
