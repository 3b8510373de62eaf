/**
 * The scopes of the login flow (docs/identity.md, "Scopes"): `auth` (who the user is, no consent asked) and the
 * consent scopes `profile`, `phone`, `email`, which a user grants or withdraws per mini-app.
 */
export const scopes = ['auth', 'profile', 'phone', 'email'] as const;
export type Scope = (typeof scopes)[number];

/** The scopes that need the user's consent for the mini-app before a code may carry them. */
export const consentScopes = ['profile', 'phone', 'email'] as const;
export type ConsentScope = (typeof consentScopes)[number];

export const isScope = (value: string): value is Scope => (scopes as readonly string[]).includes(value);
export const isConsentScope = (value: string): value is ConsentScope =>
  (consentScopes as readonly string[]).includes(value);

/** Scopes in their canonical order (as `scopes` lists them), each once. */
export function canonicalScopes<S extends Scope>(values: Iterable<S>): S[] {
  const set = new Set<Scope>(values);
  return scopes.filter((s) => set.has(s)) as S[];
}

/** A value that names a user or a mini-app: stream-safe, 1 to 64 characters, starting with a letter or digit. */
export const identityIdPattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
