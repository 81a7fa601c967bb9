// Field limits of capture sessions, reconstruction runs and designs (services/capture). Upload
// bytes (a file, a whole capture) are not field limits: they stay with the capture machine as
// CAPTURE_LIMITS (../capture.ts). How the limits are read and re-checked: ./index.ts.

/** Presign and process: the free-text fields, the files a manifest lists, a file's media type. */
export const CAPTURE_FIELD_LIMITS = {
  /** device, capturedBy, sceneTag and a file's name. */
  text: 200,
  /** Files in one capture. */
  frames: 2000,
  /** A media type (RFC 6838 caps type and subtype at 127 characters each). */
  contentType: 255,
  /** structureSpanM: the span of the structure, in metres. */
  structureSpanM: 100_000,
} as const;

/** Designs (POST /projects/:id/designs and its seal): maximum characters per field, after trimming. */
export const DESIGN_FIELD_LIMITS = { name: 200, notes: 4000, note: 4000 } as const;
