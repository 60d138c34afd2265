import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { MailModule } from '../mail/mail.module';
import { AnomaliesController } from './anomalies.controller';
import { AnomaliesRepository } from './anomalies.repository';
import { AnomaliesService } from './anomalies.service';
import { AnomalyDetectionService } from './detection/anomaly-detection.service';
import { AnomalyListener } from './detection/anomaly.listener';
import { DetectorRegistry } from './detection/detector-registry';
import { SessionHistoryRepository } from './detection/session-history.repository';
import { GeoCacheEntry } from './entities/geo-cache-entry.entity';
import { SecurityAnomaly } from './entities/security-anomaly.entity';
import { GeoCacheRepository } from './geo/geo-cache.repository';
import { GEOLOCATOR, geolocatorProvider } from './geo/geo.provider';

/** Area D: sign-in anomaly detection, geolocation, alert emails and the end user's anomaly API. */
@Module({
  imports: [TypeOrmModule.forFeature([SecurityAnomaly, GeoCacheEntry]), CommonModule, MailModule],
  controllers: [AnomaliesController],
  providers: [
    AnomaliesRepository,
    AnomaliesService,
    SessionHistoryRepository,
    DetectorRegistry,
    GeoCacheRepository,
    geolocatorProvider,
    AnomalyDetectionService,
    AnomalyListener,
  ],
  // GEOLOCATOR: the sign-in policy locates an address before the session for the geo kinds (decision 0326).
  exports: [DetectorRegistry, AnomalyListener, GEOLOCATOR],
})
export class AnomaliesModule {}
