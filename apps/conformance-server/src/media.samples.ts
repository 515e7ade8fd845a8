/** A 1×1 transparent PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A valid WAV file: 44-byte RIFF header and 8 samples of 8-bit silence at 8 kHz. */
export const WAV_BASE64 = Buffer.concat([
  Buffer.from('RIFF'),
  u32(36 + 8),
  Buffer.from('WAVEfmt '),
  u32(16),
  u16(1), // PCM
  u16(1), // mono
  u32(8000),
  u32(8000),
  u16(1),
  u16(8),
  Buffer.from('data'),
  u32(8),
  Buffer.alloc(8, 128),
]).toString('base64');

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
}
