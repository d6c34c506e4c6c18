// The profile export (product-spec section 2): profile.csv with a byte-order mark, the header
// email,fullName,username,team and one data row. Built in the browser
// (docs/decisions/profile-export.md).
import type { Profile } from './api';

export const PROFILE_CSV_FILENAME = 'profile.csv';
export const PROFILE_CSV_HEADER = ['email', 'fullName', 'username', 'team'] as const;

const BOM = '\uFEFF';
// Spreadsheets run a cell that starts with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: formula starts defused with an apostrophe, then RFC 4180 quoting when needed. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRow(cells: readonly string[]): string {
  return cells.map(csvCell).join(',');
}

/** The whole file as text, lines ended by CRLF as RFC 4180 asks. */
export function buildProfileCsv(
  profile: Pick<Profile, 'email' | 'fullName' | 'username' | 'team'>,
) {
  const row = [
    profile.email,
    profile.fullName ?? '',
    profile.username ?? '',
    profile.team?.name ?? '',
  ];
  return `${BOM}${csvRow(PROFILE_CSV_HEADER)}\r\n${csvRow(row)}\r\n`;
}

/** Hands the file to the browser's download. */
export function downloadProfileCsv(profile: Parameters<typeof buildProfileCsv>[0]): void {
  const blob = new Blob([buildProfileCsv(profile)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = PROFILE_CSV_FILENAME;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke on the next tick: some browsers start reading the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
