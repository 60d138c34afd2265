import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type JobStatus = 'pending' | 'running' | 'completed' | 'failed';

/** One durable job (decision 0002): claimed under a lease with FOR UPDATE SKIP LOCKED. */
@Entity('jobs')
@Index('jobs_due_idx', ['runAt'], { where: `status IN ('pending', 'running')` })
@Check('jobs_status_check', `status IN ('pending', 'running', 'completed', 'failed')`)
export class Job {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') queue: string;
  @Column('jsonb', { default: {} }) payload: Record<string, unknown>;
  @Column('text', { default: 'pending' }) status: JobStatus;
  @Column('int', { default: 0 }) attempts: number;
  @Column('int', { name: 'max_attempts', default: 10 }) maxAttempts: number;
  @Column('timestamptz', { name: 'run_at', default: () => 'now()' }) runAt: Date;
  @Column('timestamptz', { name: 'locked_until', nullable: true }) lockedUntil: Date | null;
  @Column('text', { name: 'locked_by', nullable: true }) lockedBy: string | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { name: 'completed_at', nullable: true }) completedAt: Date | null;
}
