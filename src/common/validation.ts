import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from './errors';
import { COMMON_ERRORS } from './common.errors';

function collect(errors: ValidationError[], prefix = '', out: Record<string, string[]> = {}): Record<string, string[]> {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) out[path] = Object.values(error.constraints);
    if (error.children?.length) collect(error.children, path, out);
  }
  return out;
}

/** Global validation: whitelist, unknown fields rejected, problems listed per field. */
export function buildValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => {
      const details = collect(errors);
      const fields = Object.keys(details).join(', ');
      return new DomainError(COMMON_ERRORS.validation_failed, `Invalid request: check ${fields}`, { details });
    },
  });
}
