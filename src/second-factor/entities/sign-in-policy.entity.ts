import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';

export type PolicyAction = 'allow' | 'challenge' | 'block';

/** A workspace's sign-in policy per anomaly kind, judged before the session exists (decisions 0316, 0326). No row: allow all. */
@Entity('sign_in_policies')
@Check('sign_in_policies_new_device_check', `new_device IN ('allow', 'challenge', 'block')`)
@Check('sign_in_policies_new_ip_check', `new_ip IN ('allow', 'challenge', 'block')`)
@Check('sign_in_policies_new_country_check', `new_country IN ('allow', 'challenge', 'block')`)
@Check('sign_in_policies_impossible_travel_check', `impossible_travel IN ('allow', 'challenge', 'block')`)
export class SignInPolicy {
  @PrimaryColumn('uuid', { name: 'workspace_id' }) workspaceId: string;
  @OneToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'sign_in_policies_workspace_id_fkey' })
  workspace?: Workspace;
  @Column('text', { name: 'new_device', default: 'allow' }) newDevice: PolicyAction;
  @Column('text', { name: 'new_ip', default: 'allow' }) newIp: PolicyAction;
  @Column('text', { name: 'new_country', default: 'allow' }) newCountry: PolicyAction;
  @Column('text', { name: 'impossible_travel', default: 'allow' }) impossibleTravel: PolicyAction;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
