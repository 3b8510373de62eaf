/**
 * Helpers for the identity HTTP tests: the operator calls that set the scene (users, mini-apps, consent, codes) and
 * the mini-app backend's calls (token exchange with HTTP Basic, user info), over plain fetch.
 */
import { expect } from 'chai';
import { gatewayHeaders } from '../../support/gateway.js';
import { call, expectOk, operatorHeaders, unique } from '../support.js';

export interface MiniApp {
  miniAppId: string;
  secret: string;
}

export interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  scope: string;
  user_id: string;
}

/** An answer whose body is not the {code, message, data} envelope. */
export interface RawAnswer {
  status: number;
  text: string;
  headers: Headers;
  body: unknown;
}

export interface OAuthError {
  error: string;
  error_description: string;
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A form body. */
export const form = (params: Record<string, string>) => new URLSearchParams(params).toString();

export class IdentityApi {
  constructor(readonly baseUrl: string) {}

  async createUser(overrides: Record<string, unknown> = {}): Promise<string> {
    const userId = (overrides.user_id as string | undefined) ?? unique('user-');
    const res = await call(this.baseUrl, 'POST', '/operator/v1/identity/users', {
      headers: operatorHeaders(),
      json: {
        user_id: userId,
        name: 'Nguyễn Thị Hoa',
        date_of_birth: '1992-05-17',
        gender: 'FEMALE',
        phone_number: '0901112233',
        email: 'hoa@example.vn',
        avatar_url: 'https://cdn.example.vn/a/hoa.png',
        ...overrides,
      },
    });
    expectOk(res, 201);
    return userId;
  }

  async createMiniApp(redirectUris: string[] = []): Promise<MiniApp> {
    const miniAppId = unique('app-');
    const res = await call<{ client_secret: string }>(this.baseUrl, 'POST', '/operator/v1/identity/mini-apps', {
      headers: operatorHeaders(),
      json: { miniapp_id: miniAppId, name: `Mini-app ${miniAppId}`, redirect_uris: redirectUris },
    });
    return { miniAppId, secret: expectOk(res, 201).client_secret };
  }

  async consent(userId: string, miniAppId: string, scopes: string[]): Promise<void> {
    const res = await call(this.baseUrl, 'PUT', `/operator/v1/identity/users/${userId}/consents/${miniAppId}`, {
      headers: operatorHeaders(),
      json: { scopes },
    });
    expectOk(res);
  }

  issueCodeRaw(userId: string, miniAppId: string, scopes: string[]) {
    return call<{ code: string; scopes: string[]; expires_at: string }>(
      this.baseUrl,
      'POST',
      '/operator/v1/identity/auth-codes',
      { headers: operatorHeaders(), json: { user_id: userId, miniapp_id: miniAppId, scopes } },
    );
  }

  async issueCode(userId: string, miniAppId: string, scopes: string[]): Promise<string> {
    return expectOk(await this.issueCodeRaw(userId, miniAppId, scopes), 201).code;
  }

  /** POST /oauth2/token/exchange as a form, the mini-app authenticating with HTTP Basic unless `headers` say else. */
  tokenRaw(params: Record<string, string>, client?: MiniApp, headers: Record<string, string> = {}): Promise<RawAnswer> {
    return call<unknown>(this.baseUrl, 'POST', '/oauth2/token/exchange', {
      headers: {
        ...gatewayHeaders(),
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(client && { Authorization: basic(client.miniAppId, client.secret) }),
        ...headers,
      },
      rawBody: form(params),
    });
  }

  async exchange(client: MiniApp, code: string): Promise<TokenBody> {
    const res = await this.tokenRaw({ grant_type: 'authorization_code', code }, client);
    expect(res.status, res.text).to.equal(200);
    return res.body as unknown as TokenBody;
  }

  userInfo(accessToken: string | undefined, headers: Record<string, string> = {}) {
    return call<Record<string, unknown> | null>(this.baseUrl, 'GET', '/open/identity/v1/userinfo', {
      headers: {
        ...gatewayHeaders(),
        ...(accessToken !== undefined && { Authorization: `Bearer ${accessToken}` }),
        ...headers,
      },
    });
  }
}

/** Asserts an RFC 6749 error body (exactly error and error_description) and no caching. */
export function expectOAuthError(
  res: { status: number; text: string; body: unknown; headers: Headers },
  status: number,
  error: string,
): OAuthError {
  expect(res.status, res.text).to.equal(status);
  expect(res.body, res.text).to.have.all.keys('error', 'error_description');
  const body = res.body as OAuthError;
  expect(body.error, res.text).to.equal(error);
  expect(body.error_description).to.be.a('string').with.length.greaterThan(0);
  expect(res.headers.get('cache-control')).to.equal('no-store');
  return body;
}

/** Asserts the user-info envelope with a numeric code. */
export function expectInfoCode(res: { status: number; text: string; body: unknown }, status: number, code: number) {
  expect(res.status, res.text).to.equal(status);
  expect(res.body, res.text).to.have.all.keys('code', 'message', 'data');
  const body = res.body as { code: number; message: string; data: Record<string, unknown> | null };
  expect(body.code, res.text).to.equal(code);
  return body;
}
