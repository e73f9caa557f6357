import { DomainError, type ProblemCode, Violation } from '@rental/problem';
import { MAX_UPLOAD_BYTES } from './file-type';

export type UploadRejectionReason = 'type' | 'size' | 'empty';

const REJECTIONS: Record<UploadRejectionReason, Violation & { code: ProblemCode }> = {
  type: { propertyPath: 'file', code: 'document.file_type_not_allowed', message: 'The file must be a PDF, PNG or JPEG; its content is none of them.' },
  size: { propertyPath: 'file', code: 'document.file_too_large', message: `The file is larger than 10 MB (${MAX_UPLOAD_BYTES} bytes).` },
  empty: { propertyPath: 'file', code: 'document.file_empty', message: 'The file is empty.' },
};

/**
 * The one description of a refused file. A real upload answers it as 422 (rule_violation, as
 * the specification's upload rules say); the sandbox's upload_rejected_* scenarios answer the
 * same code, detail and violations with the 400 status the specification gives them.
 */
export function uploadRejected(reason: UploadRejectionReason, kind: 'rule_violation' | 'invalid_input' = 'rule_violation'): DomainError {
  const violation = REJECTIONS[reason];
  return new DomainError(kind, violation.code, `${violation.propertyPath}: ${violation.message}`, { violations: [{ ...violation }] });
}
