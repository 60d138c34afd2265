import 'reflect-metadata';
import { createApp } from '../src/app.factory';

/** The service in its own process for bench/end-users.ts (so the load generator does not share its event loop). */
async function main(): Promise<void> {
  const app = await createApp();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  // Exit normally on SIGTERM, so a --cpu-prof run writes its profile.
  process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
  process.send?.('ready');
}

void main();
