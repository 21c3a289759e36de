import { personArtifacts } from '@/lib/artifacts';

// ?version=n&format=file|pdf
export const GET = personArtifacts.export;
