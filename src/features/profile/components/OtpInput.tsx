// One box per digit of a one-time code (product-spec section 5): digits only, one per box, typing
// moves on, Backspace on an empty box goes back, pasting the code fills every box.
import { chakra, HStack } from '@chakra-ui/react';
import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { CONTROL_BOX } from '../../../components/control-look';
import { useT } from '../../../lib/locale-context';

const Box = chakra('input', {
  base: {
    w: '11',
    h: '12',
    textAlign: 'center',
    fontSize: 'xl',
    fontWeight: 'semibold',
    ...CONTROL_BOX,
    color: 'gray.900',
    _disabled: { opacity: 0.6 },
  },
});

/** The typed code with '' for each empty box. */
export type OtpDigits = string[];

export const emptyOtp = (length: number): OtpDigits => Array.from({ length }, () => '');
export const isOtpComplete = (digits: OtpDigits): boolean => digits.every((d) => /^\d$/.test(d));

interface OtpInputProps {
  digits: OtpDigits;
  onChange: (digits: OtpDigits) => void;
  /** Accessible name of the group. */
  label: string;
  invalid?: boolean;
  disabled?: boolean;
}

const onlyDigits = (text: string): string => text.replace(/\D/g, '');

function newDigit(raw: string, caret: number | null): string | undefined {
  const char = caret ? raw[caret - 1] : undefined;
  return char && /\d/.test(char) ? char : undefined;
}

export function OtpInput({ digits, onChange, label, invalid, disabled }: OtpInputProps) {
  const t = useT();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const length = digits.length;

  const focus = (index: number) => {
    const box = boxes.current[Math.max(0, Math.min(length - 1, index))];
    box?.focus();
    box?.select();
  };

  /** Writes `text` (digits) from box `start` on, as far as it goes; focus follows. */
  const fill = (start: number, text: string) => {
    const next = [...digits];
    const chars = text.slice(0, length - start).split('');
    chars.forEach((char, offset) => (next[start + offset] = char));
    onChange(next);
    focus(start + chars.length);
  };

  const change = (index: number, input: HTMLInputElement) => {
    const raw = input.value;
    const typed = onlyDigits(raw);
    if (typed === '') {
      // Letters are dropped; an emptied box (select + delete) stays where it is.
      if (raw === '') onChange(digits.map((d, i) => (i === index ? '' : d)));
      return;
    }
    // A whole code (autofill from the SMS/e-mail suggestion) fills from the first box.
    if (typed.length >= length) fill(0, typed);
    // Input that bypassed the key handler (mobile keyboards, IME) into a filled box: the new
    // digit is the one just before the caret (which may have stood before or after the old one).
    else if (typed.length > 1) fill(index, newDigit(raw, input.selectionStart) ?? typed.slice(-1));
    else fill(index, typed);
  };

  const keyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (/^\d$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // A digit key writes its box directly: typing the digit the box already holds fires no
      // change event, and the caret position no longer matters.
      event.preventDefault();
      fill(index, event.key);
    } else if (event.key === 'Backspace' && digits[index] === '' && index > 0) {
      event.preventDefault();
      onChange(digits.map((d, i) => (i === index - 1 ? '' : d)));
      focus(index - 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focus(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focus(index + 1);
    }
  };

  const paste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const pasted = onlyDigits(event.clipboardData.getData('text'));
    if (pasted === '') return;
    fill(pasted.length >= length ? 0 : index, pasted);
  };

  return (
    <HStack role="group" aria-label={label} gap="2">
      {digits.map((digit, index) => (
        <Box
          // The boxes never reorder: the position is their identity.
          key={index}
          ref={(element: HTMLInputElement | null) => {
            boxes.current[index] = element;
          }}
          value={digit}
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={t('profile.email.digit', { index: index + 1, count: length })}
          aria-invalid={invalid ? true : undefined}
          disabled={disabled}
          onChange={(event) => change(index, event.target)}
          onKeyDown={(event) => keyDown(index, event)}
          onPaste={(event) => paste(index, event)}
          onFocus={(event) => event.target.select()}
        />
      ))}
    </HStack>
  );
}
