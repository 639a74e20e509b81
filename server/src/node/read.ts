import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** The outcome of reading a file for linting. `text` keeps a BOM if the file has one. */
export type ReadResult =
  | { kind: 'text'; text: string; size: number }
  | { kind: 'tooLarge'; size: number }
  | { kind: 'binary'; size: number }
  | { kind: 'error'; message: string };

/**
 * The outcome of `readBounded`: the bytes of a regular file, or why they were not read
 * (`missing`: no such file; `notRegular`: a FIFO, socket, device or directory; `symlink`: a symbolic
 * link where `noFollow` was asked; `tooLarge`: over the cap, `size` from `fstat`; `error`: any other
 * system error, with its message).
 */
export type BoundedRead =
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'missing' | 'notRegular' | 'symlink' | 'error'; message: string }
  | { kind: 'tooLarge'; size: number };

/**
 * The one way to read a path a repository chooses (the linted file, `env_file:` targets, the
 * `.gitignore` chain, sibling `.env*` files, a `.git` file and the index, shared index, config and
 * commondir it leads to). Opens with `O_NONBLOCK` (opening a FIFO for reading would otherwise wait for
 * a writer forever), checks with `fstat` on the open descriptor that it is a regular file (so
 * `/dev/zero`, a FIFO or a socket, also behind a symlink, is never read) and not larger than
 * `maxBytes`, then reads at most that size. With `noFollow` a symbolic link is refused (`O_NOFOLLOW`,
 * last path component). Never throws.
 */
export function readBounded(path: string, maxBytes: number, options: { noFollow?: boolean } = {}): BoundedRead {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0));
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: 'notRegular', message: 'not a regular file (a FIFO, socket or device); not read' };
    const size = stat.size;
    if (size > maxBytes) return { kind: 'tooLarge', size };
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { kind: 'bytes', bytes: buffer.subarray(0, read) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = (error as Error).message;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing', message };
    // O_NOFOLLOW on a symlink fails with ELOOP (Linux, macOS) or EMLINK (FreeBSD), per open(2).
    if (options.noFollow && (code === 'ELOOP' || code === 'EMLINK')) return { kind: 'symlink', message: 'a symbolic link; not followed' };
    return { kind: 'error', message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `readBounded` as UTF-8 text (invalid bytes replaced), or `undefined` when the file was not read. */
export function readBoundedText(path: string, maxBytes: number, options: { noFollow?: boolean } = {}): string | undefined {
  const r = readBounded(path, maxBytes, options);
  return r.kind === 'bytes' ? r.bytes.toString('utf8') : undefined;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads a file as UTF-8 text through `readBounded` unless it is larger than `maxBytes` (the size is
 * checked before reading, so a 50 MB file costs one `fstat`) or binary (a NUL byte, or bytes that are
 * not valid UTF-8). Never throws: I/O errors come back as `{kind: 'error'}` with the system message; a
 * FIFO, socket or device is never read (it could block forever) and comes back as an error too.
 */
export function readForLint(path: string, maxBytes: number): ReadResult {
  const r = readBounded(path, maxBytes);
  if (r.kind === 'bytes') return decodeForLint(r.bytes);
  if (r.kind === 'tooLarge') return r;
  return { kind: 'error', message: r.message };
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
