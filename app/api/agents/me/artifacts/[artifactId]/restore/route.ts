import { agentArtifacts } from '@/lib/artifacts';

// Copies a past version into a new, current one.
export const POST = agentArtifacts.restore;
