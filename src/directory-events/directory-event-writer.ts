import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import type { DirectoryChange, DomainEvent, StatementRider } from '../events/domain-events';
import type { TransactionPhaseWriter } from '../events/transaction-phase';
import { GROUP_SCHEMA } from '../scim/scim.constants';
import { DirectoryEventsRepository, NewDirectoryEvent } from './directory-events.repository';

/** A rider for an event with no directory change: rides, writes nothing. */
const NOTHING: StatementRider = { expression: 'NULL', params: [], settle: () => undefined };

/**
 * The directory-event writer (decision 0510), the second transaction-phase writer: the directory
 * changes a SCIM event carries (`payload.directory`) become rows of directory_events in the
 * change's own transaction, so nothing is acknowledged without its event, across kill -9. Unlike
 * the audit writer it fails the change when it cannot write (failsTheChange): an outbox that may
 * miss a row is no outbox. Membership changes are one set-based insert per change.
 */
@Injectable()
export class DirectoryEventWriter implements TransactionPhaseWriter {
  readonly name = 'directory-events';
  readonly failsTheChange = true;
  private readonly groupLocation: string;

  constructor(
    private readonly repository: DirectoryEventsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.groupLocation = `${config.PUBLIC_BASE_URL}/scim/v2/Groups/`;
  }

  async write(event: DomainEvent, tx: EntityManager | null): Promise<void> {
    const changes = changesOf(event);
    if (changes.length === 0) return;
    // A directory change always happens in a unit of work; there is nothing to record without one.
    if (!tx) return;
    const workspaceId = event.payload.workspaceId!;
    for (const change of changes) await this.append(tx, workspaceId, change);
  }

  /**
   * The SCIM create's user event rides its insert, and a one-member group change's event its membership
   * statement (decision 0991); anything else asks for a transaction.
   */
  rider(event: DomainEvent): StatementRider | null {
    const changes = changesOf(event);
    if (changes.length === 0) return NOTHING;
    const [change] = changes;
    if (changes.length > 1) return null;
    const workspaceId = event.payload.workspaceId!;
    if (change.kind === 'user' && change.stampedNow) {
      const { expression, params } = this.repository.appendStampedExpression(userEvent(workspaceId, change));
      return { expression, params, settle: () => undefined };
    }
    if (change.kind === 'membership' && change.groupIds.length === 1 && change.users.length === 1) {
      const { expression, params } = this.repository.appendMembershipExpression(
        workspaceId,
        change.type,
        change.groupIds[0],
        change.users[0],
      );
      return { expression, params, settle: () => undefined };
    }
    return null;
  }

  private async append(tx: EntityManager, workspaceId: string, change: DirectoryChange): Promise<void> {
    switch (change.kind) {
      case 'user':
        if (change.stampedNow) return this.repository.appendStamped(tx, userEvent(workspaceId, change));
        return this.repository.append(tx, userEvent(workspaceId, change));
      case 'group':
        return this.repository.appendGroup(
          tx,
          workspaceId,
          change.groupId,
          change.type,
          change.changed ?? null,
          GROUP_SCHEMA,
          this.groupLocation,
        );
      case 'group-deleted':
        return this.repository.append(tx, {
          workspaceId,
          type: 'directory.group.deleted',
          resourceId: String(change.group.id),
          data: change.group,
          changed: null,
        });
      case 'membership':
        return this.repository.appendMemberships(tx, workspaceId, change.type, change.groupIds, change.users);
    }
  }
}

function changesOf(event: DomainEvent): readonly DirectoryChange[] {
  return ('directory' in event.payload && event.payload.directory) || [];
}

function userEvent(workspaceId: string, change: Extract<DirectoryChange, { kind: 'user' }>): NewDirectoryEvent {
  return { workspaceId, type: change.type, resourceId: String(change.user.id), data: change.user, changed: change.changed ?? null };
}
