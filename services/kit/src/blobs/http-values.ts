// Header values that travel inside presigned URLs: the pinned Content-Type of an upload and the
// file name of a download. Both are checked before anything is signed, so a URL can never carry a
// value that would break a header (a newline, a quote) or that the two adapters would read apart.
import { AppError } from '../errors.ts';

const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
/** RFC 9110 media type: type "/" subtype *( OWS ";" OWS parameter ), quoted values without escapes. */
const MEDIA_TYPE = new RegExp(
  `^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\u0000-\\u001f\\u007f]*"))*$`,
);
const MAX_CONTENT_TYPE_LENGTH = 255;
const MAX_FILE_NAME_LENGTH = 255;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The pinned Content-Type, trimmed; refuses anything that is not a media type. */
export function checkContentType(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length > MAX_CONTENT_TYPE_LENGTH || !MEDIA_TYPE.test(trimmed)) {
    throw new AppError(
      'field_invalid',
      `contentType must be a media type such as "image/jpeg" (at most ${MAX_CONTENT_TYPE_LENGTH} characters).`,
      { field: 'contentType' },
    );
  }
  return trimmed;
}

/**
 * Whether a request's Content-Type is the pinned one. Compared the way S3 compares a signed header
 * (surrounding blanks trimmed, inner runs of blanks collapsed), so both adapters accept and refuse
 * the same requests.
 */
export function sameContentType(sent: string | undefined, pinned: string): boolean {
  if (sent === undefined) return false;
  const canonical = (value: string): string => value.trim().replace(/[ \t]+/g, ' ');
  return canonical(sent) === canonical(pinned);
}

export function checkDownloadName(name: string): string {
  if (name === '' || name.length > MAX_FILE_NAME_LENGTH || CONTROL.test(name) || /[/\\]/.test(name)) {
    throw new AppError(
      'field_invalid',
      `downloadName must be a file name of 1 to ${MAX_FILE_NAME_LENGTH} characters, without '/', '\\' or control characters.`,
      { field: 'downloadName' },
    );
  }
  return name;
}

/**
 * `attachment` with the file name twice (RFC 6266): an ASCII fallback for old clients and the
 * exact UTF-8 name (RFC 8187) for the rest.
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
