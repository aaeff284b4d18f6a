import { buildOpenApiDocument } from './server/http/openapi.ts';
console.log(JSON.stringify(buildOpenApiDocument(), null, 1));
