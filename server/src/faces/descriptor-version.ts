// The way the stored descriptors are made now (migration 019, docs/decisions/face-recompute.md):
// 1, issue 30's alignment; 2, issue 43's (squares on the face mesh, padded beyond the picture,
// mirrored; small faces described from the video at full size). A descriptor of an older version
// is described again by the recompute job (recompute.ts), its face keeping its person. Raise it
// with any change that moves descriptors, and the column's default with a migration.
export const FACE_DESCRIPTOR_VERSION = 2;
