import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../../app/providers';
import { createStore } from '../../../app/store';
import { englishMessages } from '../../../lib/i18n';
import { emptyOtp, isOtpComplete, OtpInput } from './OtpInput';

afterEach(cleanup);

/** The input as a screen uses it: a submit button that waits for a full code. */
function Harness() {
  const [digits, setDigits] = useState(() => emptyOtp(6));
  return (
    <>
      <OtpInput digits={digits} onChange={setDigits} label="Verification code" />
      <button type="button" disabled={!isOtpComplete(digits)}>
        Verify
      </button>
    </>
  );
}

function setup() {
  const user = userEvent.setup();
  render(
    <Providers store={createStore()} locale={{ locale: 'en', messages: englishMessages }}>
      <Harness />
    </Providers>,
  );
  const boxes = Array.from({ length: 6 }, (_, i) =>
    screen.getByLabelText<HTMLInputElement>(`Digit ${i + 1} of 6`),
  );
  const verify = screen.getByRole<HTMLButtonElement>('button', { name: 'Verify' });
  return { user, boxes, verify, values: () => boxes.map((box) => box.value) };
}

describe('OtpInput', () => {
  it('keeps one digit per box, moves on after each and ignores anything but digits', async () => {
    const { user, boxes, values } = setup();
    await user.click(boxes[0]!);
    await user.keyboard('1a2-3');
    expect(values()).toEqual(['1', '2', '3', '', '', '']);
    expect(document.activeElement).toBe(boxes[3]);
    for (const box of boxes) expect(box.inputMode).toBe('numeric');
  });

  it('fills every box from a pasted code, wherever the paste happens', async () => {
    const { user, boxes, values, verify } = setup();
    await user.click(boxes[2]!);
    await user.paste('12 34-56');
    expect(values()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(verify.disabled).toBe(false);
  });

  it('pastes a partial code from the focused box on', async () => {
    const { user, boxes, values } = setup();
    await user.click(boxes[1]!);
    await user.paste('98');
    expect(values()).toEqual(['', '9', '8', '', '', '']);
    expect(document.activeElement).toBe(boxes[3]);
  });

  it('replaces the digit of a filled box wherever the caret stands', async () => {
    const { user, boxes, values } = setup();
    await user.click(boxes[0]!);
    await user.keyboard('12');
    await user.type(boxes[0]!, '7', { initialSelectionStart: 0, initialSelectionEnd: 0 });
    await user.type(boxes[1]!, '8', { initialSelectionStart: 1, initialSelectionEnd: 1 });
    expect(values()).toEqual(['7', '8', '', '', '', '']);
  });

  it('moves on when the typed digit equals the one already in the box', async () => {
    const { user, boxes, values } = setup();
    await user.click(boxes[0]!);
    await user.keyboard('000000');
    await user.click(boxes[0]!);
    await user.keyboard('305');
    expect(values()).toEqual(['3', '0', '5', '0', '0', '0']);
    expect(document.activeElement).toBe(boxes[3]);
  });

  it('goes back on Backspace in an empty box and clears the digit there', async () => {
    const { user, boxes, values } = setup();
    await user.click(boxes[0]!);
    await user.keyboard('123');
    expect(document.activeElement).toBe(boxes[3]);
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '2', '', '', '', '']);
    expect(document.activeElement).toBe(boxes[2]);
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '', '', '', '', '']);
  });

  it('keeps submit disabled until every box holds a digit', async () => {
    const { user, boxes, verify } = setup();
    expect(verify.disabled).toBe(true);
    await user.click(boxes[0]!);
    await user.keyboard('12345');
    expect(verify.disabled).toBe(true);
    await user.keyboard('6');
    expect(verify.disabled).toBe(false);
    await user.click(boxes[3]!);
    await user.keyboard('{Delete}');
    expect(verify.disabled).toBe(true);
  });
});
