import { okRaw, route, serialize } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { requestLocale } from '@/lib/i18n';
import { importTarget, previewImport, readUpload } from '@/lib/imports';

type Params = { workspaceId: string };

/** What an import of this file would do, written nowhere: format, mapping (guessed or given), first rows, every row's problems. */
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  await importTarget(user, params.workspaceId);
  const upload = await readUpload(req);
  const preview = await previewImport(user, params.workspaceId, upload, requestLocale(req, 'people'));
  // The mapping is keyed by field names (`first_name`), as requests send it: camelCase would rename them.
  return okRaw({ ...serialize(preview), mapping: preview.mapping });
});
