import { Spine1763700000000 } from './1763700000000-Spine';
import { Scim1763700100000 } from './1763700100000-Scim';
import { EndUsers1763700200000 } from './1763700200000-EndUsers';
import { ManagedDatabases1763700300000 } from './1763700300000-ManagedDatabases';
import { Saml1763700400000 } from './1763700400000-Saml';
import { Anomalies1763700500000 } from './1763700500000-Anomalies';
import { AuditLatestLookup1763700600000 } from './1763700600000-AuditLatestLookup';
import { AuditAppend1763700700000 } from './1763700700000-AuditAppend';
import { ScimGroupExternalId1795522600462 } from './1795522600462-ScimGroupExternalId';
import { SamlPairwiseAndPendingBound1795522988245 } from './1795522988245-SamlPairwiseAndPendingBound';
import { ScimWithoutWaits1795522988294 } from './1795522988294-ScimWithoutWaits';
import { AuditChainAndWebhooks1795523082895 } from './1795523082895-AuditChainAndWebhooks';
import { SamlNameIdKeyAndSeenRequests1795687114451 } from './1795687114451-SamlNameIdKeyAndSeenRequests';
import { ScimOAuthClients1795686466223 } from './1795686466223-ScimOAuthClients';
import { EndUserSecondFactors1795686501550 } from './1795686501550-EndUserSecondFactors';
import { SignInPolicies1795688130344 } from './1795688130344-SignInPolicies';
import { OpenIdProvider1795700000000 } from './1795700000000-OpenIdProvider';
import { EndUserPasskeys1795710000000 } from './1795710000000-EndUserPasskeys';
import { SignInPoliciesForGeoKinds1795710000001 } from './1795710000001-SignInPoliciesForGeoKinds';
import { AuditBrinSmallRanges1795600000000 } from './1795600000000-AuditBrinSmallRanges';
import { SigningKeyActivation1795720000000 } from './1795720000000-SigningKeyActivation';
import { SsoConnections1795800000000 } from './1795800000000-SsoConnections';
import { SsoOidcFlows1795800000001 } from './1795800000001-SsoOidcFlows';
import { SsoSamlAssertionIds1795805000001 } from './1795805000001-SsoSamlAssertionIds';
import { DirectoryEvents1795810000000 } from './1795810000000-DirectoryEvents';
import { ApplicationSignUp1795820000001 } from './1795820000001-ApplicationSignUp';
import { ApplicationPkcePolicy1795840000001 } from './1795840000001-ApplicationPkcePolicy';
import { SsoVerifiedDomainOnce1795844000000 } from './1795844000000-SsoVerifiedDomainOnce';
import { WebhookDirectoryEvents1795850000000 } from './1795850000000-WebhookDirectoryEvents';
import { SharedSignals1795905200000 } from './1795905200000-SharedSignals';
import { SharedSignalsFromAudit1795905200001 } from './1795905200001-SharedSignalsFromAudit';
import { SharedSignalsSetOrder1795905200002 } from './1795905200002-SharedSignalsSetOrder';
import { SharedSignalsPushLease1795905200003 } from './1795905200003-SharedSignalsPushLease';

/** Every migration, in order. Add new ones at the end. */
export const MIGRATIONS = [
  Spine1763700000000,
  Scim1763700100000,
  EndUsers1763700200000,
  ManagedDatabases1763700300000,
  Saml1763700400000,
  Anomalies1763700500000,
  AuditLatestLookup1763700600000,
  AuditAppend1763700700000,
  ScimGroupExternalId1795522600462,
  SamlPairwiseAndPendingBound1795522988245,
  ScimWithoutWaits1795522988294,
  AuditChainAndWebhooks1795523082895,
  AuditBrinSmallRanges1795600000000,
  ScimOAuthClients1795686466223,
  EndUserSecondFactors1795686501550,
  SamlNameIdKeyAndSeenRequests1795687114451,
  SignInPolicies1795688130344,
  OpenIdProvider1795700000000,
  EndUserPasskeys1795710000000,
  SignInPoliciesForGeoKinds1795710000001,
  SigningKeyActivation1795720000000,
  SsoConnections1795800000000,
  SsoOidcFlows1795800000001,
  SsoSamlAssertionIds1795805000001,
  DirectoryEvents1795810000000,
  ApplicationSignUp1795820000001,
  ApplicationPkcePolicy1795840000001,
  SsoVerifiedDomainOnce1795844000000,
  WebhookDirectoryEvents1795850000000,
  SharedSignals1795905200000,
  SharedSignalsFromAudit1795905200001,
  SharedSignalsSetOrder1795905200002,
  SharedSignalsPushLease1795905200003,
];
