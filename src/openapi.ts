import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Identity, directory-sync and security service')
    .setDescription(
      'SCIM 2.0 server, SAML 2.0 IdP, email verification, sign-in anomaly detection, audit log and managed databases. Error bodies: {error, message, details?} (SCIM routes: RFC 7644 error body). A method a path does not support is 405 with an Allow header. U+0000 and unpaired surrogates in any body, URL, cookie or header are 400 (SCIM: invalidValue).',
    )
    .setVersion('1.0')
    .addCookieAuth('sid', { type: 'apiKey', in: 'cookie', name: 'sid' }, 'developer-session')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'dat_… developer access token' }, 'developer-token')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'scim_… workspace SCIM token' }, 'scim-token')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'end-user access token' }, 'end-user-token')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** OpenAPI at /openapi.json and the UI at /docs. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'openapi.json', raw: ['json'] });
}
