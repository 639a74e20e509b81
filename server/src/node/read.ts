import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** The outcome of reading a file for linting. `text` keeps a BOM if the file has one. */
export type ReadResult =
  | { kind: 'text'; text: string; size: number }
  | { kind: 'tooLarge'; size: number }
  | { kind: 'binary'; size: number }
  | { kind: 'error'; message: string };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads a file as UTF-8 text unless it is larger than `maxBytes` (the size is checked before
 * reading, so a 50 MB file costs one `fstat`) or binary (a NUL byte, or bytes that are not valid UTF-8).
 * Never throws: I/O errors come back as `{kind: 'error'}` with the system message; a FIFO, socket or
 * device is never read (it could block forever) and comes back as an error too.
 */
export function readForLint(path: string, maxBytes: number): ReadResult {
  let fd: number | undefined;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: 'error', message: 'not a regular file (a FIFO, socket or device); not read' };
    const size = stat.size;
    if (size > maxBytes) return { kind: 'tooLarge', size };
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return decodeForLint(buffer.subarray(0, read));
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Decodes bytes as UTF-8 text, or reports them as binary. */
export function decodeForLint(bytes: Uint8Array): ReadResult {
  if (bytes.subarray(0, 8192).includes(0)) return { kind: 'binary', size: bytes.length };
  try {
    return { kind: 'text', text: decoder.decode(bytes), size: bytes.length };
  } catch {
    return { kind: 'binary', size: bytes.length };
  }
}
