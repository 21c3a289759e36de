import { personArtifacts } from '@/lib/artifacts/http';

// ?from=1&to=3
export const GET = personArtifacts.diff;
