// Dates as the spec shows them (section 9), always in the viewer's local time.
import dayjs from 'dayjs';

type DateInput = string | number | Date | null | undefined;

function valid(value: DateInput): dayjs.Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed : null;
}

/** YYYY/MM/DD HH:mm in local time; empty for a missing or invalid value. */
export function formatDateTime(value: DateInput): string {
  return valid(value)?.format('YYYY/MM/DD HH:mm') ?? '';
}

/** YYYY/MM/DD in local time (the original date of a video). */
export function formatDate(value: DateInput): string {
  return valid(value)?.format('YYYY/MM/DD') ?? '';
}

/** HH:mm:ss from a number of seconds; hours keep counting past 24. */
export function formatLength(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) {
    return '';
  }
  const total = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}
