import { openApiDocument } from '@/lib/topics';

/** The topic API as OpenAPI 3.1, public like the contract document it describes. */
export function GET(req: Request) {
  return Response.json(openApiDocument(new URL(req.url).origin), { headers: { 'cache-control': 'public, max-age=300' } });
}
