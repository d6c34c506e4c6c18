// A failed call's words for the user: the API's {detail}, or S3's XML message.
import { describe, expect, it } from 'vitest';
import { detailMessage } from './api-errors.ts';

describe('detailMessage', () => {
  it('takes the API detail, a string as is and a list as its messages', () => {
    expect(detailMessage('{"detail":"Video not found"}', 404)).toBe('Video not found');
    expect(detailMessage('{"detail":[{"loc":["body","x"],"msg":"a"},{"msg":"b"}]}', 422)).toBe(
      'a; b',
    );
  });

  it("takes S3's own message from its XML error", () => {
    const body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>EntityTooLarge</Code>' +
      '<Message>Your proposed upload exceeds the maximum allowed size</Message></Error>';
    expect(detailMessage(body, 400)).toBe('Your proposed upload exceeds the maximum allowed size');
  });

  it('says the status when the answer has no words', () => {
    expect(detailMessage('', 502)).toBe('Request failed with status 502');
    expect(detailMessage('<html>Bad gateway</html>', 502)).toBe('Request failed with status 502');
  });
});
