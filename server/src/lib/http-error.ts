// The API's error shape: {"detail": "message"} or {"detail": [{loc, msg, type}]}.
export interface DetailEntry {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | DetailEntry[],
    /** More top-level keys of the answer beside detail (a 409's conflicting video). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => d.msg).join('; '));
  }
}

/** A 422 naming one field, as the client maps list details to field names. */
export function fieldError(field: string, msg: string, type = 'value_error'): HttpError {
  return new HttpError(422, [{ loc: ['body', field], msg, type }]);
}
