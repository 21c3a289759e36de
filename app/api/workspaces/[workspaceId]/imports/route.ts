import { okRaw, route, serialize } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { requestLocale } from '@/lib/i18n';
import { importTarget, readUpload, runImport } from '@/lib/imports';

type Params = { workspaceId: string };

/** Imports a CSV file into one table: the rows that can be read, and a report of the others with their reasons. */
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  await importTarget(user, params.workspaceId);
  const upload = await readUpload(req);
  const report = await runImport(user, params.workspaceId, upload, requestLocale(req, 'people'));
  // The mapping is keyed by field names (`first_name`), as requests send it: camelCase would rename them.
  return okRaw({ ...serialize(report), mapping: report.mapping });
});
