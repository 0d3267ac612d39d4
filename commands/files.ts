// Records a stored upload: one `FileUploaded` on the file's own stream. The route stores the bytes
// first and deletes them if this fails, so an event never names bytes that are not there.
import type { FileCommand } from '../domain/file/index.js';
import { fileDecider } from '../domain/file/index.js';
import type { CommandMeta } from '../domain/metadata.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { handleCommand } from './handle.js';

export async function recordFileUpload(store: EventStore, file: FileCommand['data'], meta: CommandMeta): Promise<{ position: Position | null }> {
  // Event ids derive from the request's correlation id and the file's stream, so the files of one
  // request get ids of their own and a retried append of one file is dropped.
  const { position } = await handleCommand(store, fileDecider, { type: 'RecordFileUpload', data: file }, meta);
  return { position };
}
