/**
 * The identity context's operator endpoints (/operator/v1/identity/..., routes in operator-routes.ts). Each write
 * runs one command as the authenticated operator (commandOf). docs/identity.md, "Operator endpoints".
 */
import { Router, type Request } from 'express';
import { identityIdPattern, type IdentityServices } from '../../application/identity/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { HttpError, interfaceErrorHandler } from '../shared/interface-errors.js';
import { body, commandOf, ok } from '../shared/operator-api.js';
import { mount } from '../shared/route-spec.js';
import { identityOperatorErrors } from './operator-http.js';
import { identityOperatorRoutes as routes } from './operator-routes.js';
import {
  authCodeBody,
  authCodeJson,
  changeUserBody,
  consentBody,
  createMiniAppBody,
  createUserBody,
  miniAppJson,
  userJson,
} from './operator-schemas.js';

function idParam(req: Request, name: 'userId' | 'miniAppId'): string {
  const value = req.params[name] ?? '';
  if (!identityIdPattern.test(value)) throw new HttpError(400, 'OPS-REQ-001', `${name} is not a valid id`);
  return value;
}

export function identityOperatorRouter(
  deps: Pick<IdentityServices, 'users' | 'miniApps' | 'authCodes'> & { logger: Logger },
): Router {
  const { users, miniApps, authCodes } = deps;
  const router = Router();

  mount(router, routes.createUser, [], async (req, res) => {
    const { userId, profile } = body(createUserBody, req);
    return ok(userJson(await users.register(commandOf(req, res), userId, profile)), 201);
  });
  mount(router, routes.getUser, [], async (req) => ok(userJson(await users.get(idParam(req, 'userId')))));
  mount(router, routes.changeUser, [], async (req, res) => {
    const userId = idParam(req, 'userId');
    const changes = body(changeUserBody, req);
    return ok(userJson(await users.changeProfile(commandOf(req, res), userId, changes)));
  });
  mount(router, routes.setConsent, [], async (req, res) => {
    const userId = idParam(req, 'userId');
    const miniAppId = idParam(req, 'miniAppId');
    const { scopes } = body(consentBody, req);
    await miniApps.get(miniAppId);
    const withdrawn = (['profile', 'phone', 'email'] as const).filter((s) => !scopes.includes(s));
    return ok(
      userJson(await users.recordConsent(commandOf(req, res), userId, miniAppId, { granted: scopes, withdrawn })),
    );
  });

  mount(router, routes.createMiniApp, [], async (req, res) => {
    const input = body(createMiniAppBody, req);
    const { miniApp, clientSecret } = await miniApps.register(commandOf(req, res), input);
    return ok({ ...miniAppJson(miniApp), client_secret: clientSecret }, 201);
  });
  mount(router, routes.getMiniApp, [], async (req) => ok(miniAppJson(await miniApps.get(idParam(req, 'miniAppId')))));
  mount(router, routes.rotateMiniAppSecret, [], async (req, res) => {
    const miniAppId = idParam(req, 'miniAppId');
    const { miniApp, clientSecret } = await miniApps.rotateSecret(commandOf(req, res), miniAppId);
    return ok({ ...miniAppJson(miniApp), client_secret: clientSecret });
  });

  mount(router, routes.issueAuthCode, [], async (req, res) => {
    authCodes.assertEnabled();
    // A code is shown once and only its hash is kept: a resend cannot be answered with the first one.
    if (req.header('x-idempotency-key') !== undefined)
      throw new HttpError(
        400,
        'OPS-REQ-001',
        'X-Idempotency-Key is not taken here: a code is shown once; ask for another',
      );
    const request = body(authCodeBody, req);
    return ok(authCodeJson(await authCodes.issue(commandOf(req, res), request)), 201);
  });

  // Its domain errors through the identity table; a path none of its routes take goes on to the next router.
  router.use(interfaceErrorHandler(identityOperatorErrors, deps.logger));
  return router;
}
