import Router from '@koa/router';
import { openApiDocument } from '../openapi/document.js';

/** `GET /openapi.json` (under the API prefix): the OpenAPI 3.1 document of the API. Public, like the health routes. */
export function openApiRoutes(): Router {
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument();
  });
  return router;
}
