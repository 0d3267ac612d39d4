import { Conflict, Invalid } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { FileEvent, FileUploaded } from './events.js';
import { ALLOWED_CONTENT_TYPES, MAX_FILE_BYTES, MIN_FILE_BYTES, objectKeyFor } from './rules.js';
import type { FileState } from './state.js';

export type FileCommand = { type: 'RecordFileUpload'; data: Omit<FileUploaded['data'], 'at'> };

const SHA256 = /^[0-9a-f]{64}$/;

export const decide = (command: FileCommand, state: FileState, meta: CommandMeta): FileEvent[] => {
  switch (command.type) {
    case 'RecordFileUpload': {
      const file = command.data;
      // The id is new for every file the route reads; finding it already recorded means this is a
      // retry of the same append, which must not record the file twice.
      if (state) {
        if (state.organizationId === file.organizationId && state.sha256 === file.sha256) return [];
        throw new Conflict(`File '${file.fileId}' already exists.`);
      }
      // The route checked all of this against the bytes; the decider keeps the record honest.
      if (!(ALLOWED_CONTENT_TYPES as readonly string[]).includes(file.contentType)) throw new Invalid(`Unsupported content type ${file.contentType}`);
      if (!Number.isInteger(file.size) || file.size < MIN_FILE_BYTES || file.size > MAX_FILE_BYTES) throw new Invalid(`File size ${file.size} is outside ${MIN_FILE_BYTES} to ${MAX_FILE_BYTES} bytes`);
      if (!SHA256.test(file.sha256)) throw new Invalid('sha256 must be 64 lowercase hex characters');
      if (file.key !== objectKeyFor(file.fileId, file.contentType)) throw new Invalid(`File key must be ${objectKeyFor(file.fileId, file.contentType)}`);
      return [{ type: 'FileUploaded', data: { ...file, at: meta.now } }];
    }
    default: {
      const unknown: never = command.type;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
