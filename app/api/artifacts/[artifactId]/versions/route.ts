import { personArtifacts } from '@/lib/artifacts';

export const GET = personArtifacts.listVersions;
// Saving an edit makes the next version.
export const POST = personArtifacts.createVersion;
