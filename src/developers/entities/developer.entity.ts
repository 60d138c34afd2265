import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A developer account (dashboard user). Never renamed nor deleted (decision 0009 relies on it). */
@Entity('developers')
// UNIQUE (lower(email)): an expression index TypeORM cannot declare; the migration owns it.
@Index('developers_email_key', { synchronize: false })
export class Developer {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') email: string;
  @Column('text', { default: '' }) name: string;
  @Column('text', { name: 'password_hash', select: false }) passwordHash: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
