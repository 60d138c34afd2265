import { ApiResponse } from '@nestjs/swagger';
import { ref } from '../api-docs/response-schema';
import { OAuthErrorSchema } from './oauth.schemas';

export const FORM = 'application/x-www-form-urlencoded';

/** RFC 6749 §5.2 error answers of an OAuth endpoint, one example per code. */
export const oauthErrors = (status: number, codes: [string, string][]) =>
  ApiResponse({
    status,
    description: codes.map(([code, when]) => `\`${code}\`: ${when}`).join('; '),
    content: {
      'application/json': {
        schema: ref(OAuthErrorSchema),
        examples: Object.fromEntries(
          codes.map(([code, when]) => [code, { summary: when, value: { error: code, error_description: when } }]),
        ),
      },
    },
  });
