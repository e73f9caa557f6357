import busboy from 'busboy';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ulid } from '@rental/ids';
import { DomainError, Violation, firstUnstorableText, invalidInput, unstorableTextError } from '@rental/problem';
import type { UploadForm } from '../../domain/documents';
import type { FileSource } from '../../domain/model';
import { MAGIC_BYTES_NEEDED, StoredMimeType, detectFileType } from '../../domain/file-type';
import { uploadRejected } from '../../domain/upload-rejection';

export interface MultipartOptions {
  /** Where a file larger than IN_MEMORY_FILE_BYTES is spooled while it arrives; one file per upload, removed afterwards. */
  spoolDirectory: string;
  maxFileBytes: number;
  /** After an early refusal the rest of the body is read and dropped up to this many bytes, then the connection is cut. */
  drainLimitBytes: number;
}

export interface ReceivedUpload {
  form: UploadForm;
  /** Removes the spooled file; call it when the upload was handled, stored or not. */
  discard(): Promise<void>;
}

const TEXT_PARTS = new Set(['category', 'description', 'requestedDocumentId']);
const MAX_TEXT_PART_BYTES = 64 * 1024;

const unknownPart = (name: string): Violation => ({ propertyPath: name, code: 'validation.unknown_field', message: 'This field is not allowed.' });

/**
 * Reads the rest of a body we no longer want, so the client (and the gateway in between) can
 * finish sending and read our answer; a body that goes on too long loses its connection.
 */
function drain(req: IncomingMessage, limitBytes: number): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limitBytes) req.destroy();
  });
  req.resume();
}

/**
 * A file up to this size stays in memory while it is handled; a larger one is written to the
 * spool directory as it arrives. Opening, writing, reading back and removing a file per upload
 * was a fifth of documents' CPU for the 100 KB documents partners send (docs/benchmarks.md), and
 * this bound keeps memory to a quarter MiB per upload in flight whatever the file's size.
 */
export const IN_MEMORY_FILE_BYTES = 256 * 1024;

/**
 * Takes the file part as it arrives, counting and sniffing on the way: the type is decided by the
 * first bytes and refused at once, and the size is refused the moment it passes the limit. The
 * file is kept in memory up to IN_MEMORY_FILE_BYTES; from there on it goes to `target` (the chunks
 * held so far first), so memory never holds more than that of a file.
 */
/** The spool file of one upload: created only once its file outgrows memory. */
interface SpoolFile {
  path: string;
  created: boolean;
}

function spool(stream: Readable, target: SpoolFile, options: MultipartOptions): Promise<FileSource> {
  return new Promise((resolve, reject) => {
    const held: Buffer[] = [];
    let out: fs.WriteStream | undefined;
    let size = 0;
    let head = Buffer.alloc(0);
    let mimeType: StoredMimeType | undefined;
    let failed = false;
    const fail = (error: DomainError) => {
      if (failed) return;
      failed = true;
      stream.removeAllListeners('data');
      stream.resume();
      out?.destroy();
      reject(error);
    };
    const spoolUnavailable = (error: unknown) =>
      fail(new DomainError('unavailable', 'document.spool_unavailable', 'The upload cannot be received right now; retry later.', { cause: error }));
    const toDisk = (): fs.WriteStream | undefined => {
      try {
        // Recreated when a tmp cleaner removed it; not writable at all is a 503, not a 500.
        fs.mkdirSync(options.spoolDirectory, { recursive: true, mode: 0o700 });
      } catch (error) {
        spoolUnavailable(error);
        return undefined;
      }
      const file = fs.createWriteStream(target.path, { flags: 'wx', mode: 0o600 });
      target.created = true;
      file.on('error', spoolUnavailable);
      file.on('finish', () => {
        if (!failed && mimeType) resolve({ size, mimeType, open: () => fs.createReadStream(target.path) });
      });
      for (const chunk of held.splice(0)) file.write(chunk);
      return file;
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxFileBytes) return fail(uploadRejected('size'));
      if (!mimeType && head.length < MAGIC_BYTES_NEEDED) {
        head = Buffer.concat([head, chunk.subarray(0, MAGIC_BYTES_NEEDED - head.length)]);
        if (head.length >= MAGIC_BYTES_NEEDED) {
          mimeType = detectFileType(head);
          if (!mimeType) return fail(uploadRejected('type'));
        }
      }
      if (!out && size <= IN_MEMORY_FILE_BYTES) {
        held.push(chunk);
        return;
      }
      out ??= toDisk();
      if (!out) return;
      if (!out.write(chunk)) {
        stream.pause();
        out.once('drain', () => stream.resume());
      }
    });
    stream.on('end', () => {
      if (failed) return;
      if (size === 0) return fail(uploadRejected('empty'));
      mimeType ??= detectFileType(head);
      if (!mimeType) return fail(uploadRejected('type'));
      if (out) {
        out.end();
        return;
      }
      const bytes = Buffer.concat(held);
      resolve({ size, mimeType, open: () => Readable.from([bytes]) });
    });
    stream.on('error', () => fail(invalidInput('request.aborted', 'The request body was not received completely.')));
  });
}

/**
 * The multipart/form-data body of an upload: the text parts, and the one file spooled and
 * checked. Refusals of the file (type, size) end reading at once; everything else the form
 * lacks is left to the use case, which reports all violations together.
 */
export function receiveUpload(req: IncomingMessage, options: MultipartOptions): Promise<ReceivedUpload> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw invalidInput(
      'document.not_multipart',
      'Send the document as multipart/form-data with the parts file, category and, optionally, description and requestedDocumentId.',
    );
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { files: 1, fields: 10, parts: 12, fieldSize: MAX_TEXT_PART_BYTES, fieldNameSize: 100 },
    });
  } catch {
    throw invalidInput('document.malformed_multipart', 'The multipart body has no boundary.');
  }
  const spoolFile: SpoolFile = { path: path.join(options.spoolDirectory, ulid()), created: false };
  // A file kept in memory left nothing on disk to remove.
  const discard = () => (spoolFile.created ? fs.promises.rm(spoolFile.path, { force: true }) : Promise.resolve());

  return new Promise<ReceivedUpload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const violations: Violation[] = [];
    let file: Promise<UploadForm['file']> | undefined;
    let finished = false;

    const stop = (error: DomainError) => {
      if (finished) return;
      finished = true;
      req.unpipe(parser);
      parser.removeAllListeners();
      parser.on('error', () => undefined);
      drain(req, options.drainLimitBytes);
      void discard();
      reject(error);
    };

    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        violations.push(unknownPart(name));
        stream.resume();
        return;
      }
      file = spool(stream, spoolFile, options).then(
        (source) => ({ originalName: info.filename, source }),
        (error: DomainError) => {
          stop(error);
          return undefined;
        },
      );
    });
    parser.on('field', (name, value, info) => {
      if (name === 'file') {
        violations.push({ propertyPath: 'file', code: 'validation.type', message: 'The file must be sent as a file part (with a filename).' });
      } else if (!TEXT_PARTS.has(name)) {
        violations.push(unknownPart(name));
      } else if (firstUnstorableText(value) !== undefined) {
        stop(unstorableTextError(name));
      } else if (info.valueTruncated) {
        violations.push({ propertyPath: name, code: 'validation.too_big', message: `This value is too long; at most ${MAX_TEXT_PART_BYTES} bytes.` });
      } else {
        fields[name] = value;
      }
    });
    const tooManyParts = () =>
      violations.push({
        propertyPath: '',
        code: 'document.too_many_parts',
        message: 'Send one file and at most the parts category, description and requestedDocumentId.',
      });
    parser.on('filesLimit', tooManyParts);
    parser.on('fieldsLimit', tooManyParts);
    parser.on('partsLimit', tooManyParts);
    parser.on('error', () => stop(invalidInput('document.malformed_multipart', 'The multipart body is malformed.')));
    parser.on('close', () => {
      void (file ?? Promise.resolve(undefined)).then((received) => {
        if (finished) return;
        finished = true;
        resolve({
          form: {
            category: fields.category,
            description: fields.description,
            requestedDocumentId: fields.requestedDocumentId,
            file: received,
            violations: [...new Map(violations.map((v) => [`${v.propertyPath}|${v.code}`, v])).values()],
          },
          discard,
        });
      });
    });
    req.on('error', () => stop(invalidInput('request.aborted', 'The request body was not received completely.')));
    req.on('close', () => {
      if (!req.complete) stop(invalidInput('request.aborted', 'The request body was not received completely.'));
    });
    req.pipe(parser);
  });
}
