/** Who is calling: resolved from the bearer token by AuthGuard. */
export interface Principal {
  tokenId: string;
  isAdmin: boolean;
  orgID: string | null;
  userID: string | null;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by AuthGuard for /v1 routes. */
      principal?: Principal;
    }
  }
}
