import { personArtifacts } from '@/lib/artifacts';

// ?version=n places the comments on that version (default: the current one).
export const GET = personArtifacts.listComments;
export const POST = personArtifacts.addComment;
