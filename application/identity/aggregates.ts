/**
 * The identity context's aggregates, as the write engine names them (application/shared/aggregate.ts;
 * docs/event-store.md, "The write engine"): users, mini-apps, one-time codes and token grants.
 */
import {
  authCodeDecider,
  identityDecoders,
  identityEventDecoder,
  miniAppDecider,
  streams,
  tokenGrantDecider,
  userDecider,
} from '../../domain/identity/index.js';
import { aggregate, type AggregateDeps } from '../shared/aggregate.js';

export function identityAggregates(deps: AggregateDeps) {
  const eventDecoder = identityEventDecoder;
  return {
    user: aggregate({ decider: userDecider, stream: streams.user, decoder: identityDecoders.user, eventDecoder }, deps),
    miniApp: aggregate(
      { decider: miniAppDecider, stream: streams.miniApp, decoder: identityDecoders.miniApp, eventDecoder },
      deps,
    ),
    /** Named by the code's sha256. */
    authCode: aggregate(
      { decider: authCodeDecider, stream: streams.authCode, decoder: identityDecoders.authCode, eventDecoder },
      deps,
    ),
    tokenGrant: aggregate(
      { decider: tokenGrantDecider, stream: streams.tokenGrant, decoder: identityDecoders.tokenGrant, eventDecoder },
      deps,
    ),
  };
}
