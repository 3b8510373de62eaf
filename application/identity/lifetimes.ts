/** How long the login flow's codes and tokens live (IDENTITY_* settings; docs/identity.md, "Lifetimes"). */
export interface TokenLifetimes {
  authCodeSeconds: number;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
}

/** `now` plus `seconds`, ISO 8601 in UTC. */
export const after = (now: Date, seconds: number): string => new Date(now.getTime() + seconds * 1000).toISOString();
