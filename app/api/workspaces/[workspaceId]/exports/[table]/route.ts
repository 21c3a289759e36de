import { z } from 'zod';
import { parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { exportCsv, exportTarget, IMPORT_TABLES } from '@/lib/imports';

type Params = { workspaceId: string; table: string };

/** One table as a CSV download (errors, as everywhere, in the JSON envelope). */
export const GET = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { table } = parseParams(params, z.object({ table: z.enum(IMPORT_TABLES) }));
  const workspace = await exportTarget(user, params.workspaceId);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(exportCsv(user, workspace.id, table), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${table}-${day}.csv"`,
      'cache-control': 'no-store',
    },
  });
});
