/**
 * How a file someone uploaded is served back (deliverable files, credential documents): one set of
 * headers, so no download route can forget one. Such a file is the uploader's content on our origin,
 * so it is never rendered as a page of ours: offered as an attachment, its sniffed type not to be
 * second-guessed (`nosniff`), and, should a browser render it anyway, sandboxed with nothing allowed
 * (no script, no same-origin access, no fetches). Not cached by shared caches or kept by the browser.
 */

/** `Content-Disposition: attachment` with an ASCII fallback and the exact name in RFC 5987 form. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

export interface StoredFileMeta {
  /** The type sniffed from the bytes at upload (text with its charset). */
  content_type: string;
  /** The name it is offered under. */
  filename: string;
  /** Its size in bytes, when known. */
  size?: number | null;
}

/** The response headers of a stored file's download. */
export function storedFileHeaders(file: StoredFileMeta): Record<string, string> {
  return {
    'Content-Type': file.content_type,
    ...(file.size != null ? { 'Content-Length': String(file.size) } : {}),
    'Content-Disposition': attachmentDisposition(file.filename),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  };
}
