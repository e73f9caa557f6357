import { toProblem } from '@rental/problem';
import { uploadRejected } from './upload-rejection';

describe('uploadRejected', () => {
  it.each(['type', 'size'] as const)('when a %s rejection is answered by an upload and by the sandbox, then only status and title differ', (reason) => {
    const upload = toProblem(uploadRejected(reason));
    const sandbox = toProblem(uploadRejected(reason, 'invalid_input'));

    expect([upload.status, sandbox.status]).toEqual([422, 400]);
    expect({ ...sandbox, status: upload.status, title: upload.title }).toEqual(upload);
    expect(upload.violations).toEqual([expect.objectContaining({ propertyPath: 'file', code: upload.type.split('/').pop() })]);
  });
});
