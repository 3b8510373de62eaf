/**
 * Real media files built in memory for the upload tests: a PNG that decoders accept (signature, IHDR, zlib IDAT,
 * IEND, with CRCs), an MP3 (ID3v2 tag, then MPEG-1 layer III frames), an MP4 (ftyp isom, then mdat), and things
 * that are not media (an ELF and an MZ executable, text).
 */
import { deflateSync } from 'node:zlib';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A `width`×`height` RGB PNG of a gradient (rows filtered with filter 0). */
export function png(width = 4, height = 3): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, filter 0, no interlace
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rows.set([x * 40, y * 60, 128], y * (1 + width * 3) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An MP3: an ID3v2.3 tag with a title, then `frames` MPEG-1 layer III frames (128 kbit/s, 44.1 kHz, 417 bytes). */
export function mp3(frames = 8): Buffer {
  const title = Buffer.from('\u0000test tone', 'latin1');
  const frameHeader = Buffer.alloc(10);
  frameHeader.write('TIT2', 0, 'ascii');
  frameHeader.writeUInt32BE(title.length, 4);
  const tagBody = Buffer.concat([frameHeader, title]);
  const size = tagBody.length;
  const syncsafe = [(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f];
  const tag = Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, ...syncsafe]), tagBody]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([tag, ...Array.from({ length: frames }, () => frame)]);
}

/** An ISO box. */
function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, 'ascii');
  return Buffer.concat([header, body]);
}

/** The start of an MP4: its ftyp box (brand isom, compatible with mp42). */
export function mp4Header(): Buffer {
  const version = Buffer.alloc(4);
  version.writeUInt32BE(0x200);
  return box('ftyp', Buffer.from('isom', 'ascii'), version, Buffer.from('isomiso2mp42', 'ascii'));
}

/** An MP4: ftyp, then an mdat box of `payload` bytes. */
export function mp4(payload = 2048): Buffer {
  return Buffer.concat([mp4Header(), box('mdat', Buffer.alloc(payload, 7))]);
}

/** A Linux executable (ELF, x86-64) of `size` bytes. */
export function elf(size = 4096): Buffer {
  const bytes = Buffer.alloc(size);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
  bytes.writeUInt16LE(2, 16); // ET_EXEC
  bytes.writeUInt16LE(0x3e, 18); // x86-64
  return bytes;
}

/** A Windows executable (MZ header, PE signature at 0x80). */
export function windowsExe(size = 4096): Buffer {
  const bytes = Buffer.alloc(size);
  bytes.write('MZ', 0, 'ascii');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
}
