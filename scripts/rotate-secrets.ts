// Re-seals every stored secret under the first key of SECRETS_KEYS (the rotation step; lib/secrets).
// Each capability that stores secrets lists its sealed columns here.
import { CHANNEL_SEALED_COLUMNS } from '@/lib/channels';
import { CONNECTION_SEALED_COLUMNS } from '@/lib/connections';
import { asService, getDb } from '@/lib/db';
import { requireKeyRing, resealColumn, type SealedColumn } from '@/lib/secrets';

const SEALED_COLUMNS: SealedColumn[] = [...CHANNEL_SEALED_COLUMNS, ...CONNECTION_SEALED_COLUMNS];

const ring = requireKeyRing();
const changed = await asService(async (tx) => {
  let total = 0;
  for (const column of SEALED_COLUMNS) total += await resealColumn(tx, column, ring);
  return total;
});
console.log(`Re-sealed ${changed} secret(s) under the key "${ring.current.id}".`);
await (await getDb()).close();
