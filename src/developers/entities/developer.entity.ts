import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('developers')
export class Developer {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') email: string;
  @Column('text') name: string;
  @Column('text', { name: 'password_hash', select: false }) passwordHash: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
