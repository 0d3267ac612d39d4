// Document 1: filenames are sanitised (path stripped, unsafe characters removed, max 255; `unnamed`
// when none). What is left is safe in a Content-Disposition header, a shell and a file system.

export const MAX_FILENAME_LENGTH = 255;
export const UNNAMED = 'unnamed';

export function sanitiseFilename(given: string | null | undefined): string {
  if (!given) return UNNAMED;
  // The last segment of either kind of path: `C:\Users\me\a.jpg` and `../../etc/a.jpg` become `a.jpg`.
  const base = given.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    // Control characters (Unicode's Cc category), format characters (Cf: a right-to-left override,
    // U+202E, shows `a<U+202E>gpj.exe` as `aexe.jpg`; zero-width spaces and joiners, soft hyphens,
    // the BOM hide in a name), and what shells, headers and Windows file names treat specially.
    .replace(/\p{Cc}|\p{Cf}|[<>:"|?*;`$&'{}[\]\u2028\u2029]/gu, '')
    // Lone surrogates cannot be encoded; keep letters of any script.
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    // A name of dots only (`.`, `..`) names a directory, and a leading dot hides a file.
    .replace(/^\.+/, '');
  // At most 255 UTF-16 units, never cutting a character in two.
  let clipped = '';
  for (const character of cleaned) {
    if (clipped.length + character.length > MAX_FILENAME_LENGTH) break;
    clipped += character;
  }
  clipped = clipped.trim();
  return clipped === '' ? UNNAMED : clipped;
}
