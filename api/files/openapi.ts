/**
 * The files interface (/open/files/v1) in the OpenAPI document: its credentials and the routes of its route table,
 * which its router mounts (routes.ts).
 */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerRoutes } from '../shared/route-spec.js';
import { filesBasePath } from './file-json.js';
import { filesRoutes } from './routes.js';

export function registerFilesOpenApi(api: OpenApiRegistrar): void {
  const { registry } = api;
  registry.registerComponent('securitySchemes', 'bearerAccessToken', {
    type: 'http',
    scheme: 'bearer',
    description: "a user's access token (POST /oauth2/token/exchange); the file is that user's in that mini-app",
  });
  registry.registerComponent('securitySchemes', 'filesGatewayClientId', {
    type: 'apiKey',
    in: 'header',
    name: 'client_id',
    description: "the gateway party's client id",
  });
  registry.registerComponent('securitySchemes', 'filesGatewayClientSecret', {
    type: 'apiKey',
    in: 'header',
    name: 'client_secret',
    description: "the gateway party's client secret",
  });
  api.tag('Files', 'Upload of images, audio and video (the client SDK `uploadFile`) and download by their owner');
  registerRoutes(registry, filesBasePath, Object.values(filesRoutes));
}
