import { describe, expect, it } from 'vitest';
import { buildProfileCsv, csvCell } from './profile-csv';

const plain = {
  email: 'user@example.com',
  fullName: 'Test User',
  username: 'tester',
  team: { name: 'Harbour Films' },
};

describe('profile CSV', () => {
  it('starts with a byte-order mark, then the header and one data row', () => {
    const csv = buildProfileCsv(plain);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.slice(1)).toBe(
      'email,fullName,username,team\r\nuser@example.com,Test User,tester,Harbour Films\r\n',
    );
    // The mark is encoded as UTF-8 (EF BB BF) when the text becomes a file.
    expect([...new TextEncoder().encode(csv).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('quotes cells with commas, quotes or line breaks and doubles inner quotes', () => {
    expect(csvCell('Smith, John')).toBe('"Smith, John"');
    expect(csvCell('The "Boss"')).toBe('"The ""Boss"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('plain')).toBe('plain');
    const csv = buildProfileCsv({ ...plain, fullName: 'Smith, "J"', team: { name: 'A\nB' } });
    expect(csv.split('\r\n')[1]).toBe('user@example.com,"Smith, ""J""",tester,"A\nB"');
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(csvCell('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    // Defused and quoted together: the apostrophe goes inside the quotes.
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes empty cells for missing values', () => {
    const csv = buildProfileCsv({ email: 'a@b.co', fullName: null, username: null, team: null });
    expect(csv.split('\r\n')[1]).toBe('a@b.co,,,');
  });
});
