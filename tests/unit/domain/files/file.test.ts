import { expect } from 'chai';
import {
  fileDecider,
  kindOf,
  ownedBy,
  sanitiseFileName,
  type FileUploaded,
  type StoredFile,
} from '../../../../domain/files/index.js';
import { fold } from '../../../../domain/shared/decider.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(fileDecider);
const now = '2026-03-01T10:00:00.000Z';

const file: StoredFile = {
  fileId: '0b8e4f4e-2a52-4a53-9d8e-4a1c8f7e2b10',
  owner: { userId: 'u-1', miniAppId: 'app-1' },
  kind: 'image',
  mime: 'image/png',
  size: 1234,
  sha256: 'a'.repeat(64),
  storageKey: '0b/0b8e4f4e-2a52-4a53-9d8e-4a1c8f7e2b10',
  fieldName: 'avatar',
  originalName: 'me.png',
  formFields: { caption: 'hi' },
};
const uploaded: FileUploaded = { type: 'FileUploaded', data: { ...file, uploadedAt: now } };

describe('file decider', () => {
  it('records an upload as FileUploaded at the command time', () => {
    given([]).when({ type: 'RecordUpload', file, now }).then([uploaded]);
  });

  it('refuses a file id recorded before', () => {
    given([uploaded]).when({ type: 'RecordUpload', file, now }).thenRejects('FILE_EXISTS');
  });

  it('treats a kind that disagrees with the type, a bad size or checksum as a bug (plain Error)', () => {
    for (const bad of [{ kind: 'video' as const }, { size: -1 }, { size: 1.5 }, { sha256: 'XYZ' }])
      expect(() => fileDecider.decide({ type: 'RecordUpload', file: { ...file, ...bad }, now }, { status: 'NONE' }))
        .to.throw(Error)
        .that.has.property('name', 'Error');
  });

  it('belongs to its user in its mini-app only', () => {
    const state = fold(fileDecider, [uploaded]);
    expect(ownedBy(state, { userId: 'u-1', miniAppId: 'app-1' })).to.equal(true);
    expect(ownedBy(state, { userId: 'u-2', miniAppId: 'app-1' })).to.equal(false);
    expect(ownedBy(state, { userId: 'u-1', miniAppId: 'app-2' })).to.equal(false);
    expect(ownedBy(fileDecider.initialState, { userId: 'u-1', miniAppId: 'app-1' })).to.equal(false);
  });
});

describe('file kinds', () => {
  it('are image, audio and video by the top-level media type; nothing else', () => {
    expect(kindOf('image/png')).to.equal('image');
    expect(kindOf('audio/mpeg')).to.equal('audio');
    expect(kindOf('video/mp4')).to.equal('video');
    for (const other of ['application/x-elf', 'application/pdf', 'text/plain', 'imagex/png', '', undefined])
      expect(kindOf(other), String(other)).to.equal(undefined);
  });
});

describe('file names', () => {
  it('keep the last path segment, without control, bidirectional or quote characters, in NFC', () => {
    expect(sanitiseFileName('../../etc/passwd')).to.equal('passwd');
    expect(sanitiseFileName('C:\\Users\\me\\photo.jpg')).to.equal('photo.jpg');
    expect(sanitiseFileName('a"b\u0000c\u0007.png')).to.equal('abc.png');
    expect(sanitiseFileName('photo\u202egnp.exe')).to.equal('photognp.exe');
    expect(sanitiseFileName('e\u0301.png')).to.equal('\u00e9.png');
    expect(sanitiseFileName('  spaced.mp3  ')).to.equal('spaced.mp3');
  });

  it('are at most 255 characters, and null when nothing is left', () => {
    expect(sanitiseFileName('ả'.repeat(300))).to.have.length(255);
    for (const empty of [undefined, null, '', '..', '.', 'dir/', '\u0001\u0002'])
      expect(sanitiseFileName(empty)).to.equal(null);
  });
});
