import type { ArtifactComment, ArtifactDetail, ArtifactVersion, ArtifactVersionMeta } from '@/lib/artifacts';
import type { Diff } from '@/lib/artifacts/diff';

/** The artifact API's JSON: the lib's types with dates as ISO strings. */
type Json<T> = T extends Date ? string : T extends (infer U)[] ? Json<U>[] : T extends object ? { [K in keyof T]: Json<T[K]> } : T;

export type ArtifactDetailView = Json<ArtifactDetail>;
export type ArtifactVersionView = Json<ArtifactVersion>;
export type ArtifactVersionMetaView = Json<ArtifactVersionMeta>;
export type ArtifactCommentView = Json<ArtifactComment>;
export type DiffResult = Diff & { from: ArtifactVersionMetaView; to: ArtifactVersionMetaView };
