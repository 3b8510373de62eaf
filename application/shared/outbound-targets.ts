/**
 * The egress policy as a port (docs/outbound.md): whether the service may send to a URL an operator registers (an
 * IPN postback), judged from the URL alone. The outbound client (infrastructure/shared/outbound/outbound-http.ts)
 * implements it, and checks the resolved addresses again each time it connects.
 */
export interface OutboundTargets {
  /** Why the service would refuse to send to `url`, or null when it would send. */
  refusal(url: string): string | null;
}
