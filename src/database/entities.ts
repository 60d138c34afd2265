import { AuditEvent } from '../audit/entities/audit-event.entity';
import { GeoCacheEntry } from '../anomalies/entities/geo-cache-entry.entity';
import { SecurityAnomaly } from '../anomalies/entities/security-anomaly.entity';
import { DeveloperSession } from '../developers/entities/developer-session.entity';
import { DeveloperToken } from '../developers/entities/developer-token.entity';
import { Developer } from '../developers/entities/developer.entity';
import { SamlServiceProvider } from '../saml/sps/entities/saml-service-provider.entity';
import { SamlPendingRequest } from '../saml/sso/entities/saml-pending-request.entity';

/**
 * Every entity, one per table. The migrations own the schema (synchronize stays off); the
 * schema test (test/spine/schema.e2e-spec.ts) proves these describe it exactly.
 */
export const ENTITIES = [
  AuditEvent,
  SecurityAnomaly,
  Developer,
  DeveloperSession,
  DeveloperToken,
  SamlServiceProvider,
  SamlPendingRequest,
  GeoCacheEntry,
];
