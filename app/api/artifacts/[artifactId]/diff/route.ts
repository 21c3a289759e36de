import { personArtifacts } from '@/lib/artifacts';

// ?from=1&to=3
export const GET = personArtifacts.diff;
