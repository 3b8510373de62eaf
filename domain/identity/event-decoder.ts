/**
 * The identity context's one event decoder: every identity event type with its schema version, grouped by the
 * stream category that holds it. Everything that reads identity events reads them through it; writers stamp its
 * current versions. How to change an event's shape: docs/event-store.md#schema-versions-and-upcasting.
 */
import { eventDecoder, type EventDecoder, type EventSchemas } from '../shared/event-decoder.js';
import type { AuthCodeEvent, IdentityEvent, MiniAppEvent, TokenGrantEvent, UserEvent } from './events.js';

/** Stored as the type declares it: no identity event has changed shape yet. */
const v1 = { version: 1 } as const;

/** Each stream category's event types (each group complete: its type checks it) and their schema versions. */
const groups = {
  user: {
    UserRegistered: v1,
    UserProfileChanged: v1,
    ConsentGranted: v1,
    ConsentWithdrawn: v1,
  } satisfies EventSchemas<UserEvent>,
  miniApp: { MiniAppRegistered: v1, MiniAppSecretRotated: v1 } satisfies EventSchemas<MiniAppEvent>,
  authCode: { AuthCodeIssued: v1, AuthCodeRedeemed: v1 } satisfies EventSchemas<AuthCodeEvent>,
  tokenGrant: {
    TokenGrantIssued: v1,
    TokenGrantRefreshed: v1,
    TokenGrantRevoked: v1,
  } satisfies EventSchemas<TokenGrantEvent>,
};

/** The identity registry, every IdentityEvent type once. */
export const identityEventSchemas: EventSchemas<IdentityEvent> = {
  ...groups.user,
  ...groups.miniApp,
  ...groups.authCode,
  ...groups.tokenGrant,
};

/** The identity context's decoder. */
export const identityEventDecoder: EventDecoder<IdentityEvent> = eventDecoder(identityEventSchemas);

/** The decoder's stream views: `identityDecoders.user.decode(recorded)`. */
export const identityDecoders = {
  user: identityEventDecoder.only(groups.user),
  miniApp: identityEventDecoder.only(groups.miniApp),
  authCode: identityEventDecoder.only(groups.authCode),
  tokenGrant: identityEventDecoder.only(groups.tokenGrant),
};
