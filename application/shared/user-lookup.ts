/**
 * Looking a host-app user up by id: the identity context's user directory as other contexts see it (the payment
 * hub's X-MiniApp-User-ID enrichment, its 4302). A shared port (application/shared/ports.ts; docs/identity.md).
 */
export interface UserLookup {
  /** The user, or null when no user has this id. */
  find(userId: string): Promise<{ userId: string; name: string } | null>;
}
