import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENGINE_NAMES } from '../engines/database-engine';

/** Response shapes, for the OpenAPI description only (services return plain objects). */
export class DatabaseResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspace_id: string;
  @ApiProperty() display_name: string;
  @ApiProperty({ example: 'orders_k3x9q2m7a1' }) db_name: string;
  @ApiProperty({ enum: ENGINE_NAMES }) engine: string;
  @ApiProperty() host: string;
  @ApiProperty() port: number;
  @ApiProperty({ enum: ['creating', 'available', 'failed', 'deleting'] }) status: string;
  @ApiProperty({ nullable: true, type: String, description: 'Why provisioning failed' }) error: string | null;
  @ApiProperty() max_storage_mb: number;
  @ApiProperty() max_connections: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class DatabaseListResponse {
  @ApiProperty({ type: [DatabaseResponse] }) results: DatabaseResponse[];
}

export class ConnectionDetailsResponse {
  @ApiProperty() host: string;
  @ApiProperty() port: number;
  @ApiProperty() database: string;
  @ApiProperty() username: string;
  @ApiProperty({ description: 'URL-safe; shown on every read (audited)' }) password: string;
  @ApiProperty({ example: 'postgresql://u_orders_k3x9q2m7a1:...@db.example.com:6432/orders_k3x9q2m7a1?sslmode=require' })
  connection_string: string;
  @ApiProperty({ example: 'require' }) ssl_mode: string;
  @ApiPropertyOptional({ description: 'Redis only: every key and channel must start with it' }) key_prefix?: string;
}

export class BackupResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) database_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['pending', 'running', 'completed', 'failed'] }) status: string;
  @ApiProperty({ nullable: true, type: Number }) size_bytes: number | null;
  @ApiProperty({ nullable: true, type: String }) checksum_sha256: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) started_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) completed_at: string | null;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
}

export class BackupListResponse {
  @ApiProperty({ type: [BackupResponse] }) results: BackupResponse[];
}

export class RestoreResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) database_id: string;
  @ApiProperty({ format: 'uuid' }) backup_id: string;
  @ApiProperty({ enum: ['pending', 'running', 'completed', 'failed'] }) status: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) started_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) completed_at: string | null;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
}

export class MetricsResponse {
  @ApiProperty({ format: 'uuid' }) database_id: string;
  @ApiProperty({ enum: ENGINE_NAMES }) engine: string;
  @ApiProperty({ format: 'date-time' }) collected_at: string;
  @ApiProperty() storage_bytes: number;
  @ApiProperty() max_storage_bytes: number;
  @ApiProperty() connections: number;
  @ApiProperty() max_connections: number;
  @ApiPropertyOptional({ description: 'Redis: keys under the prefix' }) keys?: number;
}

export class HealthCheckResponse {
  @ApiProperty({ example: 'connect' }) name: string;
  @ApiProperty() ok: boolean;
  @ApiProperty() latency_ms: number;
  @ApiPropertyOptional() error?: string;
}

export class HealthResponse {
  @ApiProperty({ format: 'uuid' }) database_id: string;
  @ApiProperty({ enum: ['healthy', 'unhealthy', 'unknown'] }) status: string;
  @ApiProperty({ format: 'date-time' }) checked_at: string;
  @ApiProperty() latency_ms: number;
  @ApiProperty({ type: [HealthCheckResponse] }) checks: HealthCheckResponse[];
}

export class KeysPageResponse {
  @ApiProperty({ type: [String] }) keys: string[];
  @ApiProperty({ nullable: true, type: String, description: 'Pass back as cursor; null at the end' }) next_cursor: string | null;
}
