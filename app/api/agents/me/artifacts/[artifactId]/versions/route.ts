import { agentArtifacts } from '@/lib/artifacts/http';

export const GET = agentArtifacts.listVersions;
// Saving an edit makes the next version.
export const POST = agentArtifacts.createVersion;
