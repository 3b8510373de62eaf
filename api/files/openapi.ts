/**
 * The files interface (/open/files/v1) in the OpenAPI document: its bearer scheme and the routes of its route table,
 * which its router mounts (routes.ts). The gateway's client_id/client_secret schemes are the document's `clientId` and
 * `clientSecret` (one pair of header schemes for every interface behind the gateway).
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
  api.tag('Files', 'Upload of images, audio and video (the client SDK `uploadFile`) and download by their owner');
  registerRoutes(registry, filesBasePath, Object.values(filesRoutes));
}
