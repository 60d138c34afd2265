import { ApiProperty } from '@nestjs/swagger';
import { ANOMALY_KINDS } from '../detectors/detector.types';

/** OpenAPI description of an anomaly record (spec D, Resources); the shape is AnomalyView. */
export class AnomalyResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ANOMALY_KINDS }) kind: string;
  @ApiProperty({ enum: ['info', 'warn', 'critical'] }) severity: string;
  @ApiProperty({ nullable: true, type: String }) ip_address: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'ISO 3166-1 alpha-2' }) country: string | null;
  @ApiProperty({ nullable: true, type: String }) city: string | null;
  @ApiProperty({ nullable: true, type: String }) user_agent: string | null;
  @ApiProperty({ description: 'Plain-language summary' }) message: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'impossible_travel: from_country, to_country, distance_km, delta_hours, speed_kmh, prior_session_id; ' +
      'new_device/new_ip: browser_family, os_family; new_country: country, known_countries',
  })
  metadata: Record<string, unknown>;
  @ApiProperty({ format: 'uuid', description: 'The session that triggered it' }) session_id: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) notified_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) acknowledged_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AnomalyListResponse {
  @ApiProperty({ type: [AnomalyResponse] }) results: AnomalyResponse[];
}
