import { fail, type MethodHandler, stringArg } from './method-context.js';

const getUploadUrl: MethodHandler = ({ args, state, baseUrl }) => {
  const filename = stringArg(args, 'filename');
  const length = Number(args.length);
  if (filename === undefined || !Number.isInteger(length) || length < 0) return fail('invalid_arguments');
  const id = state.newId('F');
  state.uploads.set(id, { id, filename, length, bytes: undefined });
  return { ok: true, upload_url: `${baseUrl}/upload/v1/${id}`, file_id: id };
};

function requestedFiles(value: unknown): Array<{ id: string; title?: string }> | undefined {
  if (!Array.isArray(value)) return undefined;
  const files = value.filter(
    (f): f is { id: string; title?: string } =>
      typeof f === 'object' && f !== null && typeof f.id === 'string',
  );
  return files.length === value.length && files.length > 0 ? files : undefined;
}

const completeUpload: MethodHandler = ({ args, state, directory, now }) => {
  const requested = requestedFiles(args.files);
  if (!requested) return fail('invalid_arguments');
  const channel = stringArg(args, 'channel_id');
  const threadTs = stringArg(args, 'thread_ts');
  if (channel !== undefined && !directory.channelKnown(channel)) return fail('channel_not_found');
  if (threadTs !== undefined && channel === undefined) return fail('invalid_arguments');
  const uploads = requested.map((f) => ({ upload: state.uploads.get(f.id), title: f.title }));
  if (uploads.some(({ upload }) => upload?.bytes === undefined)) return fail('file_not_found');
  const initialComment = stringArg(args, 'initial_comment');

  const completed = uploads.map(({ upload, title }) => {
    const bytes = upload!.bytes!;
    state.uploads.delete(upload!.id);
    const record = {
      id: upload!.id,
      title: title ?? upload!.filename,
      filename: upload!.filename,
      content: bytes.toString('utf8'),
      bytes,
      ...(channel !== undefined && { channel }),
      ...(threadTs !== undefined && { thread_ts: threadTs }),
      ...(initialComment !== undefined && { initial_comment: initialComment }),
      at: now(),
    };
    state.files.push(record);
    return record;
  });
  const refs = completed.map((f) => ({ id: f.id, name: f.filename, title: f.title }));
  // Sharing a file into a conversation posts a message carrying it, in the thread when asked.
  if (channel !== undefined) {
    state.post({
      channel,
      text: initialComment ?? '',
      blocks: undefined,
      threadTs,
      via: 'files.completeUploadExternal',
      files: refs,
    });
  }
  return {
    ok: true,
    files: completed.map((f) => ({
      id: f.id,
      name: f.filename,
      title: f.title,
      mimetype: 'text/plain',
      size: f.bytes.length,
    })),
  };
};

export const fileMethods: Record<string, MethodHandler> = {
  'files.getUploadURLExternal': getUploadUrl,
  'files.completeUploadExternal': completeUpload,
};
