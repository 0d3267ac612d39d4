// HTML as store listings carry it (product descriptions), read as text. Pure.

const ENTITIES: Record<string, string> = { amp: '&', nbsp: ' ', quot: '"', apos: "'", lt: '<', gt: '>', rsquo: "'", lsquo: "'", ndash: '-', mdash: '-', eacute: 'e', egrave: 'e' };

const decodeEntities = (text: string): string =>
  text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (_entity, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : ' ';
    }
    return ENTITIES[code.toLowerCase()] ?? ' ';
  });

const tidy = (text: string): string =>
  text
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/ ?\n[\n ]*/g, '\n')
    .trim();

/** Text of an HTML fragment: tags, scripts and styles dropped, entities decoded, blocks on new lines. */
export function stripHtml(html: string): string {
  return tidy(
    decodeEntities(
      html
        .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
        .replace(/<(br|\/p|\/div|\/li|\/h\d|\/tr)[^>]*>/gi, '\n')
        .replace(/<[^>]*>/g, ' '),
    ),
  );
}

/**
 * Markdown of an HTML fragment, as much as a product description needs: headings, list items,
 * bold and paragraphs; everything else is its text. Plain text passes through unchanged but tidied.
 */
export function htmlToMarkdown(html: string): string {
  return tidy(
    decodeEntities(
      html
        .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
        .replace(/<h\d[^>]*>/gi, '\n## ')
        .replace(/<li[^>]*>/gi, '\n- ')
        .replace(/<\/?(strong|b)(\s[^>]*)?>/gi, '**')
        .replace(/<(br|\/p|\/div|\/li|\/h\d|\/tr|\/ul|\/ol)[^>]*>/gi, '\n')
        .replace(/<[^>]*>/g, ' ')
        .replace(/\*\*\s*\*\*/g, ''),
    ),
  );
}
