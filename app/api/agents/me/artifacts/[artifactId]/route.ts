import { agentArtifacts } from '@/lib/artifacts/http';

export const GET = agentArtifacts.get;
