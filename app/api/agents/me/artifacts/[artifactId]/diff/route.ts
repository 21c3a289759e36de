import { agentArtifacts } from '@/lib/artifacts';

// ?from=1&to=3
export const GET = agentArtifacts.diff;
