import type { TestApp } from '../support/app';
import type { TestDeveloper } from '../support/factories';

export interface FeedEvent {
  id: string;
  seq: number;
  type: string;
  workspace_id: string;
  occurred_at: string;
  data: Record<string, unknown> & { id?: string; group?: { id: string; displayName: string }; user?: { id: string; userName: string } };
  changed?: string[];
}

/** Reads the feed from `after` to its current end, page by page, as a consumer would. */
export async function readFeed(
  t: TestApp,
  dev: TestDeveloper,
  workspaceId: string,
  after = 0,
  query: Record<string, string | number> = {},
): Promise<{ events: FeedEvent[]; nextAfter: number }> {
  const events: FeedEvent[] = [];
  let position = after;
  for (;;) {
    const res = await t
      .http()
      .get('/developer/events/')
      .query({ workspace_id: workspaceId, after: position, limit: 1000, ...query })
      .set(dev.auth);
    if (res.status !== 200) throw new Error(`feed read failed: ${res.status} ${JSON.stringify(res.body)}`);
    const page = res.body.results as FeedEvent[];
    events.push(...page);
    position = res.body.next_after as number;
    if (page.length < 1000) return { events, nextAfter: position };
  }
}
