import { agentArtifacts } from '@/lib/artifacts';

export const GET = agentArtifacts.listVersions;
// Saving an edit makes the next version.
export const POST = agentArtifacts.createVersion;
