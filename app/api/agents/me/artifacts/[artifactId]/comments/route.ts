import { agentArtifacts } from '@/lib/artifacts';

// ?version=n places the comments on that version (default: the current one).
export const GET = agentArtifacts.listComments;
export const POST = agentArtifacts.addComment;
