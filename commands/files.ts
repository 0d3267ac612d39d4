// Storing an upload: its bytes in the object store, then one `FileUploaded` on the file's own
// stream. Bytes first, so an event never names bytes that are not there; when either step fails
// the bytes are deleted again, so a refused or failed file leaves nothing behind.
import type { FileCommand } from '../domain/file/index.js';
import { fileDecider } from '../domain/file/index.js';
import type { CommandMeta } from '../domain/metadata.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import type { ObjectStore } from '../infra/objects/port.js';
import { handleCommand } from './handle.js';

/** An upload that is not kept; `stage` says which step failed (its bytes are gone either way). */
export class UploadNotStored extends Error {
  override name = 'UploadNotStored';
  readonly stage: 'bytes' | 'event';
  constructor(
    stage: 'bytes' | 'event',
    cause: unknown,
  ) {
    super(`the upload's ${stage === 'bytes' ? 'bytes could not be stored' : 'event could not be appended'}`, { cause });
    this.stage = stage;
  }
}

export async function storeUpload(
  deps: { objects: ObjectStore; eventStore: EventStore },
  file: FileCommand['data'],
  bytes: Buffer,
  meta: CommandMeta,
): Promise<{ position: Position | null }> {
  const forget = () => deps.objects.delete(file.key).catch(() => {});
  try {
    await deps.objects.put(file.key, bytes, { contentType: file.contentType });
  } catch (error) {
    await forget();
    throw new UploadNotStored('bytes', error);
  }
  try {
    // Event ids derive from the request's correlation id and the file's stream, so the files of one
    // request get ids of their own and a retried append of one file is dropped.
    const { position } = await handleCommand(deps.eventStore, fileDecider, { type: 'RecordFileUpload', data: file }, meta);
    return { position };
  } catch (error) {
    await forget();
    throw new UploadNotStored('event', error);
  }
}
