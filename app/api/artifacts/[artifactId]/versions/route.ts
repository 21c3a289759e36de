import { personArtifacts } from '@/lib/artifacts/http';

export const GET = personArtifacts.listVersions;
// Saving an edit makes the next version.
export const POST = personArtifacts.createVersion;
