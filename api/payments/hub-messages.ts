/**
 * The hub's messages: the seed's error table (spec 001, "Errors"), word for word. The envelope writes them
 * (hub-errors.ts) and the OpenAPI document lists them (hub-routes.ts), from this one table.
 */
import type { SeedMessages } from '../shared/interface-errors.js';

/**
 * The seed's text for each of its codes; 4101's "X-API-Key" is the header the hub reads,
 * `X-Payment-API-Key` (the seed's Authentication names it so). docs/payments.md, "Codes".
 */
export const hubMessages: SeedMessages = {
  '4001': 'Invalid request',
  '4661': 'Invalid get transaction detail request',
  '4012': 'Transaction not available for refund',
  '4014': 'Transaction not available for cancel',
  '4015': 'Transaction not available for confirm',
  '4016': 'Invalid status',
  '4017': 'Missing error information',
  '4100': 'Invalid API key',
  '4101': 'X-Payment-API-Key header is required',
  '4200': 'Resource does not belong to this user',
  '4301': 'Transaction not found',
  '4302': 'User not found',
  '4404': 'payment session not found',
  '4091': 'Duplicate referenceId',
  '4092': 'Duplicate refundReferenceId',
  '429': 'Too Many Requests',
  '5000': 'Internal server error',
  '5001': 'Database error',
};
