/**
 * The OpenAPI document lists the message of each code the seeds give one for, as the interfaces serve it
 * (docs/payments.md and docs/checkout.md, "Messages"): every hub and checkout response naming such a code shows the
 * seed's text, copied from the seeds' tables (the same tables the HTTP tests hold the answers to).
 */
import { expect } from 'chai';
import { buildOpenApiDocument } from '../../../api/shared/openapi.js';
import { openApi } from '../../../container.js';
import { seedCheckoutMessages } from '../../api/checkout/checkout-support.js';
import { seedHubMessages } from '../../api/payments/support.js';

type Responses = Record<string, { description?: string }>;

/** Each `- \`code\` "message": when` line of the responses of the operations under `prefix`. */
function listedCodes(prefix: string): { operation: string; code: string; message: string | undefined }[] {
  const doc = buildOpenApiDocument(openApi) as unknown as {
    paths: Record<string, Record<string, { responses: Responses }>>;
  };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith(prefix))
    .flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        Object.values(op.responses).flatMap((r) =>
          [...(r.description ?? '').matchAll(/^- `([^`]+)`(?: "([^"]*)")?:/gm)].map((m) => ({
            operation: `${method.toUpperCase()} ${path}`,
            code: m[1]!,
            message: m[2],
          })),
        ),
      ),
    );
}

describe("OpenAPI: the seed's messages as the interfaces serve them", () => {
  for (const [name, prefix, seed] of [
    ['payment hub', '/api/payments/v1', seedHubMessages],
    ['checkout', '/loyalty/v1/promotion', seedCheckoutMessages],
  ] as const)
    it(`${name}: each listed code of the seed's table shows its text, no other code shows one`, () => {
      const listed = listedCodes(prefix);
      expect(listed.length, 'codes listed').to.be.above(20);
      for (const { operation, code, message } of listed)
        expect(message, `${operation} ${code}`).to.equal((seed as Record<string, string>)[code]);
    });
});
