// Document 1 "Uploaded file" and "Other limits", document 2 "Uploads and images": what a stored
// file may be, the messages a rejected one gets, and the status of a request whose files all failed.

export const ALLOWED_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
export type ImageContentType = (typeof ALLOWED_CONTENT_TYPES)[number];

export const MIN_FILE_BYTES = 1024;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Only the first 10 file parts of a request are read. */
export const MAX_FILES = 10;

const EXTENSIONS: Record<ImageContentType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/avif': 'avif' };

export const isAllowedContentType = (type: string): type is ImageContentType => (ALLOWED_CONTENT_TYPES as readonly string[]).includes(type);

/** `uploads/<fileId>.<ext>` (document 1). */
export const objectKeyFor = (fileId: string, contentType: string): string =>
  `uploads/${fileId}.${isAllowedContentType(contentType) ? EXTENSIONS[contentType] : 'bin'}`;

/**
 * Why a file was not stored. The kind decides the status when every file failed alike: too big
 * 413, a type refused or not matching its bytes 415, the file's stream broken 400, the store
 * failing 500, anything else the client sent (too small, not decodable, too many pixels) 422.
 */
export type FailureKind = 'too-large' | 'type' | 'too-small' | 'unreadable' | 'interrupted' | 'storage';

export interface FileFailure {
  filename: string;
  error: string;
  kind: FailureKind;
}

export const UPLOAD_MESSAGES = {
  tooLarge: 'File exceeds maximum size of 10 MB',
  unsupported: (type: string) => `Unsupported file type: ${type}. Allowed: ${ALLOWED_CONTENT_TYPES.join(', ')}`,
  mismatch: (declared: string, found: string | null) =>
    found ? `File content does not match its declared type ${declared}: the bytes are ${found}` : `File content does not match its declared type ${declared}`,
  tooSmall: 'File is smaller than the minimum size of 1 KB',
  interrupted: 'Upload was interrupted before the file was complete',
  storage: 'File could not be stored',
  noneStored: 'No files were stored.',
  noFiles: 'No files provided',
  parseFailed: 'Failed to parse upload',
  wrongContentType: 'Content-Type must be multipart/form-data',
  authenticationRequired: 'Authentication required. Provide a Bearer token or sign in.',
  publicKey: 'Public keys cannot be used here. Use a private key or sign in.',
  noOrganization: 'No organization is associated with this account.',
  folder: 'Only superusers can choose an upload folder.',
  rateLimited: 'Rate limit exceeded.',
} as const;

const CLIENT_STATUS: Record<Exclude<FailureKind, 'storage'>, number> = { 'too-large': 413, type: 415, interrupted: 400, 'too-small': 422, unreadable: 422 };

/** 200 every file stored, 207 some; when none was, document 2's status for why they failed. */
export function uploadStatus(stored: number, failures: readonly FileFailure[]): number {
  if (failures.length === 0) return 200;
  if (stored > 0) return 207;
  if (failures.some((failure) => failure.kind === 'storage')) return 500;
  const statuses = new Set(failures.map((failure) => CLIENT_STATUS[failure.kind as Exclude<FailureKind, 'storage'>]));
  return statuses.size === 1 ? [...statuses][0]! : 422;
}
