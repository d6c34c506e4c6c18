// Body schemas of make-trailer and make-report: a string of at most 500 characters (product-spec
// section 5); emptiness after trimming is checked in the handler with the same 422 shape.
import { TEXT_AREA_MAX_LENGTH } from '../../../../src/config/limits.ts';

const instructionBody = (field: string) =>
  ({
    type: 'object',
    required: [field],
    properties: { [field]: { type: 'string', maxLength: TEXT_AREA_MAX_LENGTH } },
  }) as const;

export const trailerBody = instructionBody('trailer_instruction');
export const reportBody = instructionBody('report_instruction');

export const videoIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 64 } },
} as const;
