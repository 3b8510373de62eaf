/**
 * A request's URL as the logs show it (docs/operations.md, "Logs"): the value of every query parameter whose name
 * says it carries a credential (the sandbox payment page's `token`, an OAuth `code` or `state`, a key, a secret, a
 * signature) is replaced by `[redacted]`, so that reading the logs never gives a way in. One place for every line
 * that logs a URL. No route carries a credential in its path (the sandbox page's token is in its query); one that
 * did would be redacted here too.
 */

/** Query parameters that carry credentials, by their whole name (words joined, lower case). */
const credentialNames = new Set([
  'token',
  'code',
  'state',
  'key',
  'pin',
  'otp',
  'sig',
  'auth',
  'authorization',
  'session',
  'sessionid',
]);
/** ... or by their last word (`page_token`, `clientSecret`, `secureHash`) or last two (`paymentApiKey`, `pin_code`). */
const credentialWords = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'signature',
  'hash',
  'hmac',
  'credential',
  'credentials',
]);
const credentialPairs = new Set(['api key', 'secret key', 'access key', 'private key', 'pin code']);

/** Whether a query parameter's name says it carries a credential. */
export function isCredentialName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0) return false;
  return (
    credentialNames.has(words.join('')) ||
    credentialWords.has(words.at(-1)!) ||
    credentialPairs.has(words.slice(-2).join(' '))
  );
}

export const redacted = '[redacted]';

const decoded = (name: string): string => {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
};

/** `url` (a path with its query) with the credentials of its query redacted; the rest as it came. */
export function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return isCredentialName(decoded(name)) ? `${name}=${redacted}` : pair;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}
