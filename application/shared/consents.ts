/**
 * The user's current consent, as other contexts see it: which of the scopes `profile`, `phone` and `email` the user
 * consents to share with a mini-app now (the identity context's user directory; docs/identity.md, "Users and
 * consent"). A token carries the scopes granted when it was issued; a withdrawal since holds at once only where this
 * is read (user info, the order view's customer queries). A shared port (application/shared/ports.ts).
 */
export interface ConsentLookup {
  /** The scopes the user consents to for the mini-app; none for an unknown user or mini-app. */
  scopes(userId: string, miniAppId: string): Promise<readonly string[]>;
}
