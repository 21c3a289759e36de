import { agentArtifacts } from '@/lib/artifacts/http';

// Copies a past version into a new, current one.
export const POST = agentArtifacts.restore;
