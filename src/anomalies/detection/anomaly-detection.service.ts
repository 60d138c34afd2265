import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuditSeverity } from '../../events/audit-catalog';
import type { DomainEvents } from '../../events/domain-events';
import { MailService } from '../../mail/mail.service';
import { AnomaliesRepository } from '../anomalies.repository';
import { anomaliesDetected, anomalyRunFailures, detectorFailures, geoLookups } from '../anomaly.metrics';
import { AnomalyFinding, AnomalySeverity, DetectorSettings, SessionFacts } from '../detectors/detector.types';
import { runDetectors } from '../detectors/run-detectors';
import { SecurityAnomaly } from '../entities/security-anomaly.entity';
import { GEOLOCATOR } from '../geo/geo.provider';
import { Geolocator } from '../geo/geolocator';
import { alertTemplateValues, orderForAlert, shouldEmail } from './alert-email';
import { DetectorRegistry } from './detector-registry';
import { SessionHistoryRepository } from './session-history.repository';

export type LoginSuccess = DomainEvents['login_success'];

/** Anomaly severity -> audit severity: the audit has no "critical" (decision 0404). */
const AUDIT_SEVERITY: Record<AnomalySeverity, AuditSeverity> = { info: 'info', warn: 'warn', critical: 'warn' };

/**
 * What happens after a successful sign-in (spec D): geolocate the session and store the result on
 * it, run every detector in isolation, record the findings with their audit events, and send one
 * alert email through the mail outbox. Runs after the sign-in has answered; never throws.
 */
@Injectable()
export class AnomalyDetectionService {
  private readonly logger = new Logger('AnomalyDetection');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(GEOLOCATOR) private readonly geolocator: Geolocator | null,
    private readonly uow: UnitOfWork,
    private readonly history: SessionHistoryRepository,
    private readonly anomalies: AnomaliesRepository,
    private readonly registry: DetectorRegistry,
    private readonly mail: MailService,
  ) {}

  async process(event: LoginSuccess): Promise<SecurityAnomaly[]> {
    const current = await this.locate(event);
    const prior = await this.history.priorSessions(event.session.workspaceId, event.session.userId, event.session);
    const run = runDetectors(this.registry.all(), { current, prior, settings: this.settings() });
    for (const failure of run.failures) {
      detectorFailures.inc({ kind: failure.kind });
      this.logger.error(`detector ${failure.kind} failed for session ${current.id}: ${describe(failure.error)}`);
    }
    if (run.findings.length === 0) return [];
    const recorded = await this.record(event, current, run.findings);
    await this.notify(event, current, recorded).catch((err) => {
      anomalyRunFailures.inc({ stage: 'notify' });
      this.logger.error(`alert email for session ${current.id} not queued: ${describe(err)}`);
    });
    return recorded;
  }

  private settings(): DetectorSettings {
    return {
      geoEnabled: this.geolocator !== null,
      impossibleTravelKmh: this.config.ANOMALY_IMPOSSIBLE_TRAVEL_KMH,
      impossibleTravelMinKm: this.config.ANOMALY_IMPOSSIBLE_TRAVEL_MIN_KM,
    };
  }

  /** The session's facts, with geolocation when it is on and answers; stored on the session row. */
  private async locate({ session }: LoginSuccess): Promise<SessionFacts> {
    const facts: SessionFacts = {
      id: session.id,
      createdAt: new Date(session.createdAt),
      ipAddress: session.ipAddress,
      browserFamily: session.browserFamily,
      osFamily: session.osFamily,
      country: session.country,
      city: session.city,
      latitude: session.latitude,
      longitude: session.longitude,
    };
    if (!this.geolocator) return facts;
    const { info, source } = await this.geolocator.locate(session.ipAddress);
    geoLookups.inc({ source });
    if (!info) return facts;
    try {
      await this.history.storeGeo(session.workspaceId, session.id, info);
    } catch (err) {
      anomalyRunFailures.inc({ stage: 'store_geo' });
      this.logger.error(`geolocation of session ${session.id} not stored: ${describe(err)}`);
    }
    return { ...facts, ...info };
  }

  /** Anomaly rows and their anomaly_detected audit events commit together. */
  private record(event: LoginSuccess, current: SessionFacts, findings: AnomalyFinding[]): Promise<SecurityAnomaly[]> {
    const { session, user } = event;
    const acted = policyOf(event);
    return this.uow.run(async (tx, events) => {
      const rows = await this.anomalies.insertMany(
        tx,
        findings.map((f) => ({
          ...f,
          // A sign-in policy challenged this kind before the session existed: the record says so.
          metadata: acted?.kinds.includes(f.kind) ? { ...f.metadata, policy: acted.action } : f.metadata,
          workspaceId: session.workspaceId,
          userId: session.userId,
          oauthClientId: session.oauthClientId,
          sessionId: session.id,
          ipAddress: session.ipAddress,
          country: current.country,
          city: current.city,
          userAgent: session.userAgent,
        })),
      );
      for (const row of rows) {
        anomaliesDetected.inc({ kind: row.kind });
        events.emit('anomaly_detected', {
          severity: AUDIT_SEVERITY[row.severity],
          workspaceId: session.workspaceId,
          actor: { type: 'end_user', id: user.id, email: user.email },
          target: { type: 'EndUserSession', id: session.id },
          oauthClientId: session.oauthClientId,
          request: event.request,
          message: row.message,
          metadata: { ...row.metadata, kind: row.kind, anomaly_id: row.id, anomaly_severity: row.severity },
        });
      }
      return rows;
    });
  }

  /**
   * One email per sign-in listing every kind that fired, handed to the outbox in the same
   * transaction that sets notified_at and records anomaly_notified.
   */
  private async notify(event: LoginSuccess, current: SessionFacts, rows: SecurityAnomaly[]): Promise<void> {
    if (!shouldEmail(rows, this.config.ANOMALY_EMAIL_ON_NEW_DEVICE)) return;
    const { session, user } = event;
    const ordered = orderForAlert(rows);
    const clientName = await this.history.oauthClientName(session.workspaceId, session.oauthClientId);
    await this.uow.run(async (tx, events) => {
      await this.mail.enqueue(tx, {
        workspaceId: session.workspaceId,
        template: 'new_device_alert',
        to: user.email,
        values: alertTemplateValues(ordered, {
          clientName,
          firstName: user.firstName,
          email: user.email,
          ipAddress: session.ipAddress,
          userAgent: session.userAgent,
          city: current.city,
          country: current.country,
          signedInAt: current.createdAt,
          sessionsUrl: `${this.config.PUBLIC_BASE_URL}/auth/sessions/?workspace_id=${session.workspaceId}`,
        }),
      });
      await this.anomalies.markNotified(
        tx,
        session.workspaceId,
        ordered.map((r) => r.id),
      );
      events.emit('anomaly_notified', {
        workspaceId: session.workspaceId,
        actor: { type: 'end_user', id: user.id, email: user.email },
        target: { type: 'EndUserSession', id: session.id },
        oauthClientId: session.oauthClientId,
        request: event.request,
        message: `Alert email sent for ${ordered.map((r) => r.kind).join(', ')}`,
        metadata: { kinds: ordered.map((r) => r.kind), anomaly_ids: ordered.map((r) => r.id) },
      });
    });
  }
}

/** The policy that acted on this sign-in (login_success metadata.policy), if any. */
function policyOf(event: LoginSuccess): { action: string; kinds: string[] } | null {
  const policy = event.metadata?.policy as { action?: unknown; kinds?: unknown } | undefined;
  if (!policy || typeof policy.action !== 'string' || !Array.isArray(policy.kinds)) return null;
  return { action: policy.action, kinds: policy.kinds.filter((k): k is string => typeof k === 'string') };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
