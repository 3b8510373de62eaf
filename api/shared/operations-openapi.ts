/** The operations endpoints that createHttpApp serves itself (api/shared/http-app.ts), for the OpenAPI document. */
import { z } from 'zod';
import { successResponse, type OpenApiRegistrar } from './openapi.js';

export function registerOperationsOpenApi({ registry, tag }: OpenApiRegistrar): void {
  const tags = ['Operations'];
  tag('Operations', 'Health, readiness and metrics; this document is at /openapi.json and browsable at /docs');
  registry.registerPath({
    tags,
    method: 'get',
    path: '/health',
    operationId: 'health',
    summary: 'Liveness',
    responses: { 200: successResponse('The process is up', z.object({ status: z.literal('UP') })) },
  });
  const readiness = z.object({
    status: z.enum(['READY', 'NOT_READY']),
    checks: z.record(z.boolean()).describe('each dependency and whether it answers'),
  });
  registry.registerPath({
    tags,
    method: 'get',
    path: '/ready',
    operationId: 'ready',
    summary: 'Readiness: every dependency this process needs answers',
    responses: { 200: successResponse('Ready', readiness), 503: successResponse('Not ready', readiness) },
  });
  registry.registerPath({
    tags,
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics: relay position, projector lag, dead letters, process metrics',
    responses: {
      200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: z.string() } } },
    },
  });
}
