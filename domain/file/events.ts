/** Who stored a file: an API key, or a signed-in account (the session upload route). */
export interface Uploader {
  kind: 'key' | 'account';
  id: string;
}

/** Document 1's Uploaded file, as it was stored: the bytes are in the object store under `key`. */
export interface FileUploaded {
  type: 'FileUploaded';
  data: {
    fileId: string;
    organizationId: string;
    uploadedBy: Uploader;
    key: string;
    filename: string;
    contentType: string;
    size: number;
    sha256: string;
    width: number | null;
    height: number | null;
    at: string;
  };
}

export type FileEvent = FileUploaded;

export const fileStream = (fileId: string): string => `file-${fileId}`;
