/**
 * The OpenAPI 3 document, built from registrations: each interface documents its own routes from the route specs
 * and zod schemas its routers use (api/<context>/openapi.ts, next to the routers), and the composition root lists
 * the registrations. Here: the builder, the shared components (the X-Request-Id every answer carries) and the
 * helpers that turn an interface's envelope and error cases into responses.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV3['generateDocument']>;

/** What a registration adds to the document besides components and paths. */
export interface OpenApiRegistrar {
  registry: OpenAPIRegistry;
  /** Lists a tag in the document; tags are listed in the order registrations name them. */
  tag(name: string, description?: string): void;
}

/** An interface's part of the document, e.g. registerShopOpenApi. */
export type OpenApiRegistration = (api: OpenApiRegistrar) => void;

/** Every answer carries X-Request-Id (api/shared/request-context.ts). */
export const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

export const jsonContent = (schema: z.ZodTypeAny) => ({ 'application/json': { schema } });

/** [HTTP status, code, when] */
export type ErrorCase = [number, string, string];

const statusNames: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable entity',
  429: 'Too many requests',
  500: 'Internal error',
  502: 'Bad gateway',
  503: 'Service unavailable',
};

/**
 * One response per status, in the interface's failure `envelope`; its description lists each code, its message when
 * the interface's seed gives one (`messages`, the same its envelope writes: api/shared/interface-errors.ts) and when.
 */
export function errorResponses(
  cases: ErrorCase[],
  envelope: (status: number, codes: [string, ...string[]]) => z.ZodTypeAny,
  messages: Readonly<Record<string, string>> = {},
): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ErrorCase[]>();
  for (const c of cases) byStatus.set(c[0], [...(byStatus.get(c[0]) ?? []), c]);
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, list] of byStatus) {
    const whenByCode = new Map<string, string[]>();
    for (const [, code, when] of list) whenByCode.set(code, [...(whenByCode.get(code) ?? []), when]);
    const codes = [...whenByCode.keys()] as [string, ...string[]];
    const line = (code: string) => {
      const message = Object.hasOwn(messages, code) ? ` "${messages[code]}"` : '';
      return `- \`${code}\`${message}: ${whenByCode.get(code)!.join('; ')}`;
    };
    responses[status] = {
      description: `${statusNames[status]}:\n\n${codes.map(line).join('\n')}`,
      headers: requestIdHeader,
      content: jsonContent(envelope(status, codes)),
    };
  }
  return responses;
}

/** A success response in the interface's `envelope`. */
export const successResponse = (description: string, envelope: z.ZodTypeAny): ResponseConfig => ({
  description,
  headers: requestIdHeader,
  content: jsonContent(envelope),
});

export interface OpenApiOptions {
  /** The document's description: what the service serves, its envelopes, where its docs are. */
  description: string;
  registrations: readonly OpenApiRegistration[];
}

/** The OpenAPI 3.0 document of the registered interfaces. */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('headers', 'RequestId', {
    description:
      "the caller's X-Request-Id when it is a sane token (1 to 128 printable characters), a fresh UUID otherwise",
    schema: { type: 'string' },
  });
  const tags: { name: string; description?: string }[] = [];
  const api: OpenApiRegistrar = {
    registry,
    tag: (name, description) => {
      if (tags.some((t) => t.name === name)) throw new Error(`OpenAPI tag ${name} is registered twice`);
      tags.push(description === undefined ? { name } : { name, description });
    },
  };
  for (const register of options.registrations) register(api);
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: { title: 'Super-app commerce backend', version: '1.0.0', description: options.description },
    servers: [{ url: '/', description: 'this service' }],
    tags,
  });
}
