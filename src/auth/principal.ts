/** Who is calling: resolved from the bearer token by AuthGuard. */
export interface Principal {
  tokenId: string;
  isAdmin: boolean;
  orgID: string | null;
  userID: string | null;
}
