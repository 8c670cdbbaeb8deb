import { isUtf8 } from 'node:buffer';

/** Offset of the first byte that does not start a well-formed UTF-8 character (WHATWG rules), or `undefined`. */
function firstInvalidByte(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  for (let index = 0; index < bytes.length; ) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index++;
      continue;
    }
    let following: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) following = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      following = 2;
      if (lead === 0xe0) lower = 0xa0; // overlong
      if (lead === 0xed) upper = 0x9f; // surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      following = 3;
      if (lead === 0xf0) lower = 0x90; // overlong
      if (lead === 0xf4) upper = 0x8f; // past U+10FFFF
    } else return index;
    for (let step = 1; step <= following; step++) {
      const next = bytes[index + step];
      if (next === undefined || next < (step === 1 ? lower : 0x80) || next > (step === 1 ? upper : 0xbf)) return index;
    }
    index += following + 1;
  }
  return bytes.length;
}

/**
 * Why a tool that edits a file's text refuses this file, or `undefined` when its bytes are
 * valid UTF-8. Decoding other bytes replaces them with U+FFFD, so writing the edited text back
 * would change bytes the edit never touched (a Latin-1 `é`, 0xE9, would become EF BF BD).
 * @param toolName - the refusing tool, e.g. `Edit`.
 * @param shown - the file as the model should see it named.
 * @param bytes - the file's content.
 */
export function notUtf8Message(toolName: string, shown: string, bytes: Uint8Array): string | undefined {
  const offset = firstInvalidByte(bytes);
  if (offset === undefined) return undefined;
  const before = bytes.subarray(0, offset);
  const line = before.filter((byte) => byte === 0x0a).length + 1;
  const column = offset - (before.lastIndexOf(0x0a) + 1) + 1;
  const byte = offset < bytes.length ? `byte 0x${bytes[offset]!.toString(16).toUpperCase().padStart(2, '0')}` : 'the last bytes';
  return (
    `${shown} is not valid UTF-8 text: ${byte} at line ${line}, column ${column} (byte offset ${offset}) is not part of a UTF-8 character; ` +
    `the file is probably in Latin-1 or another legacy encoding. ${toolName} works on UTF-8 text and writing the file back would change bytes it does not touch, ` +
    'so nothing was changed. Change the file in its own encoding with Bash instead (e.g. `sed`, or convert it with `iconv -f latin1 -t utf-8`), or Write the whole file as UTF-8.'
  );
}
