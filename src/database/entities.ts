import { AuditEvent } from '../audit/entities/audit-event.entity';
import { SecurityAnomaly } from '../anomalies/entities/security-anomaly.entity';
import { DeveloperSession } from '../developers/entities/developer-session.entity';
import { DeveloperToken } from '../developers/entities/developer-token.entity';
import { Developer } from '../developers/entities/developer.entity';
import { ScimToken } from '../scim/tokens/entities/scim-token.entity';
import { ScimGroup } from '../scim/groups/entities/scim-group.entity';
import { ScimGroupMember } from '../scim/groups/entities/scim-group-member.entity';

/**
 * Every entity, one per table. The migrations own the schema (synchronize stays off); the
 * schema test (test/spine/schema.e2e-spec.ts) proves these describe it exactly.
 */
export const ENTITIES = [AuditEvent, SecurityAnomaly, Developer, DeveloperSession, DeveloperToken, ScimToken, ScimGroup, ScimGroupMember];
