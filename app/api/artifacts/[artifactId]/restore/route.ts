import { personArtifacts } from '@/lib/artifacts';

// Copies a past version into a new, current one.
export const POST = personArtifacts.restore;
