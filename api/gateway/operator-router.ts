/**
 * The gateway's operator endpoints (/operator/v1/gateway/...): parties and their credentials (routes in
 * operator-routes.ts). Each write runs one command as the authenticated operator (commandOf). docs/gateway.md.
 */
import { Router } from 'express';
import type { GatewayServices } from '../../application/gateway/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { interfaceErrorHandler } from '../shared/interface-errors.js';
import { body, commandOf, ok } from '../shared/operator-api.js';
import { mount } from '../shared/route-spec.js';
import { clientIdOf, gatewayOperatorErrors, partyIdOf } from './operator-http.js';
import { gatewayOperatorRoutes as routes } from './operator-routes.js';
import { createPartyBody, issueCredentialBody, issuedJson, partyJson, updatePartyBody } from './operator-schemas.js';

export function gatewayOperatorRouter(deps: Pick<GatewayServices, 'parties'> & { logger: Logger }): Router {
  const { parties } = deps;
  const router = Router();

  // Authentication and JSON bodies are the operator API's (operatorApi), before every context's router.
  mount(router, routes.createParty, [], async (req, res) => {
    const { partyId, definition } = body(createPartyBody, req);
    return ok(partyJson(await parties.register(commandOf(req, res), partyId, definition)), 201);
  });
  mount(router, routes.getParty, [], async (req) => ok(partyJson(await parties.get(partyIdOf(req)))));
  mount(router, routes.updateParty, [], async (req, res) => {
    const partyId = partyIdOf(req);
    const changes = body(updatePartyBody, req);
    return ok(partyJson(await parties.update(commandOf(req, res), partyId, changes)));
  });
  mount(router, routes.issueCredential, [], async (req, res) => {
    const partyId = partyIdOf(req);
    const request = body(issueCredentialBody, req);
    return ok(issuedJson(await parties.issueCredential(commandOf(req, res), partyId, request)), 201);
  });
  mount(router, routes.revokeCredential, [], async (req, res) =>
    ok(await parties.revokeCredential(commandOf(req, res), partyIdOf(req), clientIdOf(req))),
  );

  // Its domain errors through the gateway's table; a path none of its routes take goes on to the next router.
  router.use(interfaceErrorHandler(gatewayOperatorErrors, deps.logger));
  return router;
}
