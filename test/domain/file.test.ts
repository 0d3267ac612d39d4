import t from 'tap';
import { Conflict, Invalid } from '../../domain/errors.js';
import { fileDecider, sanitiseFilename, uploadStatus, type FileCommand, type FileEvent, type FileFailure } from '../../domain/file/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(fileDecider);
const fileId = '3f0c9a1e-7b2d-4c5e-9f8a-6b1d2c3e4f50';
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';

const file: FileCommand['data'] = {
  fileId,
  organizationId,
  uploadedBy: { kind: 'account', id: '9d2e4f6a-1b3c-4d5e-8f7a-0b1c2d3e4f5a' },
  key: `uploads/${fileId}.jpg`,
  filename: 'look.jpg',
  contentType: 'image/jpeg',
  size: 2048,
  sha256: 'a'.repeat(64),
  width: 64,
  height: 48,
};
const record: FileCommand = { type: 'RecordFileUpload', data: file };
const uploaded: FileEvent = { type: 'FileUploaded', data: { ...file, at: testMeta.now } };

t.test('a checked file is recorded once, on its own stream', async (t) => {
  t.equal(fileDecider.streamId(record), `file-${fileId}`);
  spec(t, []).when(record).then([uploaded]);
  spec(t, [uploaded]).when(record).then([]);
  spec(t, [uploaded]).when({ type: 'RecordFileUpload', data: { ...file, organizationId: '5e2b7d44-6a0f-4d8b-9b1e-3c9f2a7e4b02' } }).thenThrows(Conflict);
});

t.test('the record keeps to document 1: type, size, hash and key', async (t) => {
  const broken = (change: Partial<FileCommand['data']>): FileCommand => ({ type: 'RecordFileUpload', data: { ...file, ...change } });
  spec(t, []).when(broken({ contentType: 'image/gif' })).thenThrows(Invalid);
  spec(t, []).when(broken({ size: 1023 })).thenThrows(Invalid);
  spec(t, []).when(broken({ size: 10 * 1024 * 1024 + 1 })).thenThrows(Invalid);
  spec(t, []).when(broken({ sha256: 'A'.repeat(64) })).thenThrows(Invalid);
  spec(t, []).when(broken({ key: `images/${fileId}.jpg` })).thenThrows(Invalid);
  spec(t, []).when(broken({ contentType: 'image/png' })).thenThrows(Invalid, `File key must be uploads/${fileId}.png`);
  spec(t, []).when(broken({ size: 10 * 1024 * 1024, width: null, height: null })).then([{ type: 'FileUploaded', data: { ...file, size: 10 * 1024 * 1024, width: null, height: null, at: testMeta.now } }]);
});

t.test('filenames: path stripped, unsafe characters removed, at most 255, unnamed when none', async (t) => {
  t.equal(sanitiseFilename('../../etc/passwd.jpg'), 'passwd.jpg');
  t.equal(sanitiseFilename('C:\\Users\\me\\Summer Look.JPG'), 'Summer Look.JPG');
  t.equal(sanitiseFilename('a<b>c:d"e|f?g*h;i`j$k&l\u0000m\u001fn\u007fo.png'), 'abcdefghijklmno.png');
  t.equal(sanitiseFilename('  spaced \t\n  out .jpg '), 'spaced out .jpg');
  t.equal(sanitiseFilename('.hidden.jpg'), 'hidden.jpg');
  t.equal(sanitiseFilename('jupe-été-👗.webp'), 'jupe-été-👗.webp', 'letters of any script and emoji stay');
  t.equal(sanitiseFilename('bad\ud800.jpg'), 'bad.jpg', 'a lone surrogate goes');
  for (const empty of [undefined, null, '', '/', '..', '...', '<>', 'dir/']) t.equal(sanitiseFilename(empty), 'unnamed', JSON.stringify(empty));
  t.equal(sanitiseFilename('x'.repeat(300)).length, 255);
  const emoji = sanitiseFilename('x'.repeat(254) + '👗👗');
  t.equal(emoji, 'x'.repeat(254), 'a character is never cut in two');
});

t.test('the status of a request: 200, 207, then why every file failed', async (t) => {
  const failure = (kind: FileFailure['kind']): FileFailure => ({ filename: 'f', error: 'e', kind });
  t.equal(uploadStatus(2, []), 200);
  t.equal(uploadStatus(1, [failure('type')]), 207);
  t.equal(uploadStatus(0, [failure('too-large'), failure('too-large')]), 413);
  t.equal(uploadStatus(0, [failure('type')]), 415);
  t.equal(uploadStatus(0, [failure('interrupted')]), 400);
  t.equal(uploadStatus(0, [failure('too-small')]), 422);
  t.equal(uploadStatus(0, [failure('unreadable'), failure('too-small')]), 422);
  t.equal(uploadStatus(0, [failure('too-large'), failure('type')]), 422, 'differing client-side reasons');
  t.equal(uploadStatus(0, [failure('storage'), failure('type')]), 500, 'a failure of ours makes it ours');
});
