import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { SsfReceiverPrincipal } from '../common/auth/principal';
import { notFound } from '../common/common.errors';
import { isUuid } from '../common/ids';
import { UnitOfWork } from '../database/unit-of-work';
import type { SsfPollDto } from './dto/ssf-stream.dto';
import { POLL } from './entities/ssf-stream.entity';
import { SsfStreamsRepository } from './ssf-streams.repository';

const DEFAULT_MAX_EVENTS = 100;
/** How long a poll without returnImmediately waits for a SET (RFC 8936 §2.4 leaves it to the transmitter). */
export const POLL_WAIT_MS = 10_000;
const POLL_CHECK_MS = 100;

/**
 * Poll delivery (RFC 8936): acknowledgements and errors first, then the pending SETs, oldest
 * first. A SET stays pending until acknowledged, so a poll whose answer was lost returns it
 * again (at least once). Without returnImmediately an empty poll waits up to POLL_WAIT_MS.
 */
@Injectable()
export class SsfPollService implements OnApplicationShutdown {
  private stopping = false;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly streams: SsfStreamsRepository,
  ) {}

  onApplicationShutdown(): void {
    this.stopping = true;
  }

  async poll(p: SsfReceiverPrincipal, streamId: string, dto: SsfPollDto) {
    const stream = isUuid(streamId) ? await this.streams.findForReceiver(null, p.workspaceId, p.receiverId) : null;
    if (!stream || stream.id !== streamId || stream.deliveryMethod !== POLL) throw notFound('poll stream');
    const acks = dto.ack ?? [];
    const errors = Object.entries(dto.setErrs ?? {}).map(([jti, e]) => ({ jti, error: describe(e) }));
    if (acks.length > 0 || errors.length > 0) {
      await this.uow.run(async (tx) => {
        await this.streams.acknowledge(tx, p.workspaceId, stream.id, acks);
        await this.streams.reject(tx, p.workspaceId, stream.id, errors);
      });
    }
    const max = dto.maxEvents ?? DEFAULT_MAX_EVENTS;
    if (max === 0) return { sets: {}, moreAvailable: (await this.streams.pending(p.workspaceId, stream.id, 1)).length > 0 };
    const deadline = Date.now() + (dto.returnImmediately === false || dto.returnImmediately === undefined ? POLL_WAIT_MS : 0);
    for (;;) {
      const pending = await this.streams.pending(p.workspaceId, stream.id, max + 1);
      if (pending.length > 0 || Date.now() >= deadline || this.stopping) {
        const sets = Object.fromEntries(pending.slice(0, max).map((s) => [s.jti, s.token]));
        return { sets, moreAvailable: pending.length > max };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_CHECK_MS));
    }
  }
}

/** RFC 8936 §2.6 error: {err, description}, kept short for the record. */
function describe(e: unknown): string {
  if (e && typeof e === 'object') {
    const { err, description } = e as { err?: unknown; description?: unknown };
    return `${typeof err === 'string' ? err : 'error'}: ${typeof description === 'string' ? description : ''}`.slice(0, 500);
  }
  return 'error';
}
