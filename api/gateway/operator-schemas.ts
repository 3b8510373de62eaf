/**
 * The gateway's operator bodies and answers as zod schemas (camelCase, as the operator API's). A body parsed by its
 * schema is the typed command (docs/conventions.md, "Commands are typed"): forms are checked here (400 OPS-REQ-001
 * naming the field), the rules between fields and against the party stay with the decider. docs/gateway.md.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  allEndpoints,
  clientIdPattern,
  clientSecretPattern,
  gatewayEnvironments,
  gatewayInterfaces,
  importedSecretLength,
  parseAllowlistEntry,
  partyIdPattern,
  partyKinds,
  type CredentialRequest,
  type IssuedCredentialView,
  type PartyChanges,
  type PartyDefinition,
  type PartyView,
} from '../../application/gateway/index.js';
import { integer, matching, oneOf, text } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });

/** No entry twice (an array's later copy is named). */
const distinct = <T extends z.ZodTypeAny>(item: T, what: string, size: { min?: number; max: number }) =>
  z
    .array(item)
    .min(size.min ?? 0, `must name at least ${size.min} ${what}`)
    .max(size.max, `must name at most ${size.max} of them`)
    .superRefine((items, ctx) => {
      items.forEach((v, i) => {
        if (items.indexOf(v) !== i) ctx.addIssue({ code: 'custom', path: [i], message: `names a ${what} twice` });
      });
    });

export const partyIdParam = matching(partyIdPattern, '3 to 64 lower-case letters, digits or "-"').describe(
  'the party id: 3 to 64 lower-case letters, digits or "-", starting and ending with a letter or digit',
);

const interfaces = distinct(oneOf(gatewayInterfaces), 'interface', { max: gatewayInterfaces.length }).describe(
  `the interfaces the party may call: ${gatewayInterfaces.join(', ')}`,
);

const ipAllowlist = distinct(
  z
    .string()
    .trim()
    .refine((e) => parseAllowlistEntry(e) !== undefined, 'must be an IPv4 or IPv6 address or CIDR range'),
  'address',
  { max: 200 },
).describe(
  'addresses and CIDR ranges (IPv4 or IPv6) the party calls from; required for EXTERNAL, empty: any (INTERNAL)',
);

const endpoint = z
  .string()
  .regex(
    /^(\*|(GET|POST|PUT|PATCH|DELETE) \/\S{0,300})$/,
    'must be * or METHOD /path of one of the interface\'s routes, e.g. "POST /vouchers/reserve"',
  )
  .describe('`METHOD /path` of one of the interface’s routes (as its OpenAPI path writes it), or `*` for each of them');

const rateLimit = z
  .object({
    interface: oneOf(gatewayInterfaces),
    endpoint,
    points: integer(1).max(10_000_000, 'must be at most 10000000').describe('requests allowed per window'),
    windowSeconds: integer(1).max(86_400, 'must be at most 86400').describe('the window, in seconds'),
  })
  .strict()
  .openapi('GatewayRateLimit');

const rateLimits = z
  .array(rateLimit)
  .max(200)
  .describe('the party’s own limits instead of the default (per endpoint, or `*`: every endpoint of the interface)');

export const createPartyBody = z
  .object({
    partyId: partyIdParam,
    name: text(1, 200).describe('1 to 200 characters, trimmed'),
    kind: oneOf(partyKinds).describe('INTERNAL: our own backends; EXTERNAL: partners (uat and prod only, allowlist)'),
    interfaces,
    ipAllowlist: ipAllowlist.default([]),
    rateLimits: rateLimits.default([]),
  })
  .strict()
  .transform(({ partyId, ...definition }): { partyId: string; definition: PartyDefinition } => ({
    partyId,
    definition,
  }))
  .openapi('CreateGatewayPartyRequest');

export const updatePartyBody = z
  .object({
    name: text(1, 200).optional(),
    interfaces: interfaces.optional(),
    ipAllowlist: ipAllowlist.optional(),
    rateLimits: rateLimits.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name at least one of name, interfaces, ipAllowlist, rateLimits')
  .transform((b): PartyChanges => b)
  .openapi('UpdateGatewayPartyRequest');

export const issueCredentialBody = z
  .object({
    environments: distinct(oneOf(gatewayEnvironments), 'environment', { min: 1, max: 4 }).describe(
      'dev, sit, uat (one pair may serve several) or prod (a pair of its own); EXTERNAL: uat, prod',
    ),
    clientId: matching(clientIdPattern, '3 to 64 letters, digits, ".", "_" or "-"')
      .optional()
      .describe('to import a pair the real gateway issued; absent: generated'),
    clientSecret: z
      .string()
      .min(importedSecretLength.min, `must be at least ${importedSecretLength.min} characters`)
      .max(importedSecretLength.max, `must be at most ${importedSecretLength.max} characters`)
      .regex(clientSecretPattern, 'must be printable ASCII without spaces')
      .optional()
      .describe('to import: at least 32 random characters; absent: 256 random bits generated. Stored as its sha256'),
  })
  .strict()
  .refine((b) => b.clientSecret === undefined || b.clientId !== undefined, {
    path: ['clientId'],
    message: 'is required with an imported clientSecret',
  })
  .transform((b): CredentialRequest => b)
  .openapi('IssueGatewayCredentialRequest');

const credential = z
  .object({
    clientId: z.string(),
    environments: z.array(z.enum(gatewayEnvironments)),
    source: z.enum(['GENERATED', 'IMPORTED']),
    status: z.enum(['ACTIVE', 'REVOKED']),
    issuedAt: instant('UTC'),
    revokedAt: instant('UTC').nullable(),
  })
  .openapi('GatewayCredential');

export const gatewaySchemas = {
  party: z
    .object({
      partyId: z.string(),
      name: z.string(),
      kind: z.enum(partyKinds),
      interfaces: z.array(z.enum(gatewayInterfaces)),
      ipAllowlist: z.array(z.string()),
      rateLimits: z.array(rateLimit),
      credentials: z.array(credential).describe('never a secret nor its hash'),
      registeredAt: instant('UTC'),
      updatedAt: instant('UTC'),
    })
    .openapi('GatewayParty'),
  credential,
  issued: z
    .object({
      clientId: z.string(),
      clientSecret: z.string().describe('shown only in this answer; stored as its sha256'),
      environments: z.array(z.enum(gatewayEnvironments)),
      source: z.enum(['GENERATED', 'IMPORTED']),
      issuedAt: instant('UTC'),
    })
    .openapi('IssuedGatewayCredential'),
};

export const partyJson = (p: PartyView): z.infer<typeof gatewaySchemas.party> => p;
export const issuedJson = (c: IssuedCredentialView): z.infer<typeof gatewaySchemas.issued> => c;

export { allEndpoints };
