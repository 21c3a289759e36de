import { agentArtifacts } from '@/lib/artifacts/http';

// ?version=n places the comments on that version (default: the current one).
export const GET = agentArtifacts.listComments;
export const POST = agentArtifacts.addComment;
