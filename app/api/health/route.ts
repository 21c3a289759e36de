import { backgroundWorkStatus } from '@/inngest';
import { ok, route } from '@/lib/api';
import { describeBackends } from '@/lib/agent';
import { checkDatabase } from '@/lib/health';

/** The database, the background executor and the model backends; 503 when the database is down. */
export const GET = route(async () => {
  const [database, backgroundWork] = await Promise.all([checkDatabase(), backgroundWorkStatus().catch(() => null)]);
  const models = describeBackends();
  return ok({ status: database.ok ? 'ok' : 'degraded', database, backgroundWork, models }, database.ok ? 200 : 503);
});
