import {
  apiSpecification,
  expectNoNewEvents,
  expectResponse,
  matching,
  type ApiRequest,
} from '../../support/api-spec.js';
import { buildFastApp } from '../../support/fast-app.js';
import { operatorHeaders } from '../support.js';
import { merchant, now } from './payments-scene.js';

/**
 * The operator API refuses IPN postback URLs the egress policy would refuse (docs/outbound.md; docs/ipn.md), with its
 * own 400 naming the field, and stores nothing: loopback, private, link-local and metadata addresses, localhost, and
 * plain http in production. The development setting (EGRESS_ALLOW_LOOPBACK) is off here, as in production.
 */
const strict = apiSpecification({
  app: (deps) => buildFastApp({ ...deps, env: { EGRESS_ALLOW_LOOPBACK: 'false' } }),
  now,
});
/** Production's settings, only as many as the fast app needs to build (it opens no database). */
const productionEnv = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://unused@127.0.0.1/unused',
  GATEWAY_ENVIRONMENT: 'prod',
};
const production = apiSpecification({ app: (deps) => buildFastApp({ ...deps, env: productionEnv }), now });

const onboard = (ipnUrl: string): ApiRequest => ({
  method: 'POST',
  path: '/operator/v1/payment-merchants',
  headers: operatorHeaders(),
  json: { merchantCode: 'm2', name: 'Shop Two', ipnUrl, maxIpnRetries: 3 },
});
const change = (ipnUrl: string): ApiRequest => ({
  method: 'PATCH',
  path: '/operator/v1/payment-merchants/m1',
  headers: operatorHeaders(),
  json: { ipnUrl },
});
const refusedIpnUrl = expectResponse(400, { body: matching({ code: 'OPS-REQ-001', data: { field: 'ipnUrl' } }) });

const refused = [
  'http://169.254.169.254/latest/meta-data/',
  'https://10.0.0.1/ipn',
  'https://[::1]/ipn',
  'https://localhost/ipn',
  'http://127.0.0.1:4000/api/v1/payment-webhook',
  'https://192.168.1.10/ipn',
  'https://[::ffff:169.254.169.254]/ipn',
  'https://2130706433/ipn',
  'https://metadata.google.internal/computeMetadata/v1/',
];

describe('Operator API: IPN postback URLs under the egress policy (fast)', () => {
  for (const url of refused) {
    it(`refuses onboarding with ${url}: 400 naming ipnUrl, nothing stored`, () =>
      strict().when(onboard(url)).then(refusedIpnUrl, expectNoNewEvents()));

    it(`refuses changing the postback to ${url}: 400 naming ipnUrl, nothing stored`, () =>
      strict(merchant).when(change(url)).then(refusedIpnUrl, expectNoNewEvents()));
  }

  it('takes a public https postback', () =>
    strict()
      .when(onboard('https://partner.example/ipn'))
      .then(expectResponse(201, { body: matching({ code: 'SUCCESS' }) })));

  it('refuses plain http in production, for onboarding and for a change; https passes', async () => {
    await production().when(onboard('http://partner.example/ipn')).then(refusedIpnUrl, expectNoNewEvents());
    await production(merchant).when(change('http://partner.example/ipn')).then(refusedIpnUrl, expectNoNewEvents());
    await production(merchant)
      .when(change('https://partner.example/ipn2'))
      .then(expectResponse(200, { body: matching({ code: 'SUCCESS' }) }));
  });
});
