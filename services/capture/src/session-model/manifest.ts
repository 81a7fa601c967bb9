// The frames manifest of a presign: one entry per file, each with its content type and declared
// size. Declared sizes only refuse an obviously oversized capture early; what is metered is what
// the store holds at finalize. Keys are minted here, never taken from the caller.
import { CAPTURE_FIELD_LIMITS, CAPTURE_LIMITS, POINT_CLOUD_CONTENT_TYPES } from '@fieldops/contracts';
import { blobKey, checkContentType } from '@fieldops/kit/blobs';
import { checkLengths } from '@fieldops/kit/domain';
import { AppError } from '@fieldops/kit';
import type { capture } from '@fieldops/proto';
import type { FrameDoc } from './session.model.ts';

const invalid = (field: string, message: string) => new AppError('field_invalid', message, { field });

/** A file's name and media type within their field limits, refused as the gateway refuses them. */
function checkEntryLengths(entry: capture.FrameEntry, index: number): void {
  const limits = { name: CAPTURE_FIELD_LIMITS.text, contentType: CAPTURE_FIELD_LIMITS.contentType };
  checkLengths(limits, entry, `frames.${index}`);
}

function frameContentType(entry: capture.FrameEntry, index: number): string {
  if (!entry.contentType.trim()) {
    throw new AppError(
      'field_required',
      `frames[${index}].contentType is required: the media type of the file.`,
      {
        field: `frames[${index}].contentType`,
      },
    );
  }
  try {
    return checkContentType(entry.contentType);
  } catch {
    throw invalid(
      `frames[${index}].contentType`,
      `frames[${index}].contentType must be a media type such as "image/jpeg".`,
    );
  }
}

function frameSize(entry: capture.FrameEntry, index: number): number {
  const size = Number(entry.size);
  if (!Number.isSafeInteger(size) || size < 1 || size > CAPTURE_LIMITS.maxFrameBytes) {
    throw invalid(
      `frames[${index}].size`,
      `frames[${index}].size must be a whole number of bytes from 1 to ${CAPTURE_LIMITS.maxFrameBytes}.`,
    );
  }
  return size;
}

/** `.jpg`, `.las`: the extension of the client's file name, kept in the key for people reading it. */
function extensionOf(name: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return match ? `.${match[1]!.toLowerCase()}` : '';
}

export function validateManifest(
  tenantId: string,
  sessionId: string,
  entries: readonly capture.FrameEntry[],
): { frames: FrameDoc[]; declaredBytes: number } {
  if (entries.length === 0) {
    throw new AppError('field_required', 'frames is required: one entry per file you will upload.', {
      field: 'frames',
    });
  }
  if (entries.length > CAPTURE_FIELD_LIMITS.frames) {
    throw invalid(
      'frames',
      `frames may list at most ${CAPTURE_FIELD_LIMITS.frames} files; split the capture.`,
    );
  }
  let declaredBytes = 0;
  const frames = entries.map((entry, index): FrameDoc => {
    checkEntryLengths(entry, index);
    const name = entry.name.trim();
    const declaredSize = frameSize(entry, index);
    declaredBytes += declaredSize;
    const file = `${String(index + 1).padStart(5, '0')}${extensionOf(name)}`;
    return {
      index,
      name,
      contentType: frameContentType(entry, index),
      declaredSize,
      key: blobKey(tenantId, 'captures', sessionId, 'frames', file),
    };
  });
  if (declaredBytes > CAPTURE_LIMITS.maxCaptureBytes) {
    throw invalid(
      'frames',
      `The files add up to more than ${CAPTURE_LIMITS.maxCaptureBytes} bytes; split the capture.`,
    );
  }
  return { frames, declaredBytes };
}

const POINT_EXTENSIONS = new Set(['.las', '.laz', '.ply']);

/** A file the built-in engine reads as 3D points (PLY, LAS). */
export const isPointCloud = (frame: Pick<FrameDoc, 'contentType' | 'name'>): boolean =>
  (POINT_CLOUD_CONTENT_TYPES as readonly string[]).includes(
    frame.contentType.split(';')[0]!.trim().toLowerCase(),
  ) || POINT_EXTENSIONS.has(extensionOf(frame.name));

export const isImage = (frame: Pick<FrameDoc, 'contentType'>): boolean =>
  frame.contentType.toLowerCase().startsWith('image/');
