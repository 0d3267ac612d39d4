// A JSON document read as it arrives, whose top-level lists are handed over one entry at a time:
// the `products` of a store's feed page, the `items` or `products` of an upload. Each entry goes
// to the handler as soon as it completes and is then dropped from the parser, as is every other
// value of the root, so what reading a document holds is what its handler keeps, never the
// document. What it accepts is what JSON.parse accepts (a byte-order mark included: not JSON),
// and a key seen twice keeps its last value in its first place, as JSON.parse does.
import { Tokenizer, TokenizerError, TokenParser, TokenParserError, TokenType, type ParsedTokenInfo } from '@streamparser/json';

/** The document is not JSON; the message says where it broke. */
export class InvalidJson extends Error {
  override name = 'InvalidJson';
}

export interface JsonListsHandler {
  /** A list of the root begins (`"items": [`): its entries follow. A list seen again replaces the one before. */
  startList(key: string): void;
  /** One entry of that list, as soon as it completes. */
  entry(key: string, value: unknown, index: number): void;
  /**
   * Every other value of the root as it completes: a member that is not a list (a list's key
   * included, when its value is not an array), an element of a root array (by index), a root
   * scalar (null). Without it, they are dropped unread.
   */
  other?(value: unknown, key: string | number | null): void;
}

export type JsonRoot = 'object' | 'array' | 'scalar';

export class JsonLists {
  // Buffered strings: the default builds each string a character at a time, one small string per character.
  readonly #tokenizer = new Tokenizer({ stringBufferSize: 64 * 1024, numberBufferSize: 64 });
  readonly #tokens: TokenParser;
  readonly #lists: ReadonlySet<string>;
  readonly #handler: JsonListsHandler;
  readonly #maxDepth: number;
  #depth = 0;
  /** The depth of the container being skipped, or 0. */
  #skippingFrom = 0;
  #sawText = false;
  /** Where the document broke, once it did. */
  #broken: InvalidJson | null = null;
  /** Before the first character that is not punctuation or white space the tokenizer lets a byte-order mark pass; JSON.parse does not. */
  #beforeFirstValue = true;
  #root: JsonRoot | null = null;
  /** The root's keys in JSON.parse's order (a null-prototype object orders keys as the parsed one does). */
  readonly #keys: Record<string, true> = Object.create(null);
  #expectingKey = false;
  #key: string | null = null;
  /** Which of the lists held an array, as last seen. */
  readonly #isList = new Map<string, boolean>();

  /**
   * `lists`: the root's keys whose arrays are read entry by entry. `maxDepth`: containers nested
   * deeper (the root is level 1) are read as empty, their tokens still checked, so nesting costs
   * neither stack nor memory, and a value nested that deep still reads as too deep to a check.
   */
  constructor(lists: readonly string[], handler: JsonListsHandler, maxDepth: number) {
    this.#lists = new Set(lists);
    this.#handler = handler;
    this.#maxDepth = maxDepth;
    const paths = lists.flatMap((key) => [`$.${key}`, `$.${key}.*`]);
    this.#tokens = new TokenParser({ paths: handler.other ? ['$.*', ...paths] : paths, keepStack: false });
    keepByteOrderMarks(this.#tokenizer);
    this.#tokenizer.onToken = (token) => this.#token(token);
    this.#tokens.onValue = ({ value, key, parent, stack }) => this.#value(value, key, parent, stack.length, stack[1]?.key);
  }

  /** No text but white space so far (as String.prototype.trim sees it). */
  get blank(): boolean {
    return !this.#sawText;
  }

  /** What the root is, once its first token was read. */
  get root(): JsonRoot | null {
    return this.#root;
  }

  /** The root object's keys, in the order JSON.parse gives them. */
  get keys(): string[] {
    return Object.keys(this.#keys);
  }

  /** Whether the root's `key` held an array (its last value, when it came more than once). */
  isList(key: string): boolean {
    return this.#isList.get(key) ?? false;
  }

  /** The next piece of text. Throws InvalidJson where the document breaks; after that, text only counts for `blank`. */
  write(text: string): void {
    if (!text) return;
    this.#sawText ||= /\S/.test(text);
    if (this.#broken) return;
    this.#guard(() => {
      if (this.#beforeFirstValue) this.#beforeFirstValue = beforeFirstValue(text);
      this.#tokenizer.write(text);
    });
  }

  /** The whole document was written: throws InvalidJson unless it was one complete JSON value. */
  end(): void {
    if (!this.#sawText) throw new InvalidJson('Unexpected end of JSON input');
    if (this.#broken) throw this.#broken;
    if (!this.#tokenizer.isEnded) this.#guard(() => this.#tokenizer.end());
    if (!this.#tokens.isEnded) throw new InvalidJson('Unexpected end of JSON input');
  }

  #token(info: ParsedTokenInfo): void {
    const { token } = info;
    const opens = token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET;
    const closes = token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET;
    if (this.#skippingFrom) {
      if (opens) this.#depth++;
      if (closes && this.#depth === this.#skippingFrom) {
        this.#skippingFrom = 0;
        this.#tokens.write(info);
      }
      if (closes) this.#depth--;
      return;
    }
    if (this.#depth === 0 && this.#root === null) this.#root = token === TokenType.LEFT_BRACE ? 'object' : token === TokenType.LEFT_BRACKET ? 'array' : 'scalar';
    if (this.#depth === 1 && this.#root === 'object') this.#member(info);
    if (opens) {
      this.#depth++;
      if (this.#depth === 1) this.#expectingKey = true;
      if (this.#depth > this.#maxDepth) this.#skippingFrom = this.#depth;
    }
    if (closes) this.#depth--;
    // A root scalar completes with its token: the token parser emits only values below the root.
    const scalar = !opens && !closes && token !== TokenType.COMMA && token !== TokenType.COLON && token !== TokenType.SEPARATOR;
    this.#tokens.write(info);
    if (this.#depth === 0 && scalar && this.#root === 'scalar') this.#handler.other?.(info.value, null);
  }

  /** A token directly inside the root object: its keys, and the start of a list. */
  #member({ token, value }: ParsedTokenInfo): void {
    if (token === TokenType.COMMA) this.#expectingKey = true;
    else if (token === TokenType.STRING && this.#expectingKey) {
      this.#expectingKey = false;
      this.#key = value as string;
      this.#keys[this.#key] = true;
    } else if (token === TokenType.LEFT_BRACKET && this.#key !== null && this.#lists.has(this.#key)) {
      this.#isList.set(this.#key, true);
      this.#handler.startList(this.#key);
    }
  }

  #value(value: unknown, key: string | number | undefined, parent: unknown, depth: number, listKey: unknown): void {
    if (depth === 2) {
      if (!Array.isArray(parent)) {
        // A member of an object sent in a list's place: the whole object goes to `other` (if anyone reads it).
        if (!this.#handler.other && parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[String(key)];
        return;
      }
      // An entry of a list: handed over, and taken out of the array the token parser builds.
      parent.length -= 1;
      this.#handler.entry(String(listKey), value, key as number);
      return;
    }
    // A value of the root: a list (its entries already handed over), or any other.
    if (typeof key === 'string' && this.#lists.has(key)) {
      if (Array.isArray(value)) return;
      this.#isList.set(key, false);
    }
    this.#handler.other?.(value, key ?? null);
  }

  #guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      // The tokenizer's and the token parser's own errors; anything else came from the handler and stays its own.
      if (error instanceof TokenizerError || error instanceof TokenParserError) this.#broken = new InvalidJson(error.message);
      else if (error instanceof InvalidJson) this.#broken = error;
      throw this.#broken ?? error;
    }
  }
}

/**
 * The tokenizer decodes each run of a string's bytes with a TextDecoder that drops a byte-order
 * mark at the start of the run (`"\uFEFFitems"` would read as `"items"`); JSON.parse keeps it.
 * Its decoder is swapped for one that keeps it, and a tokenizer built otherwise is refused.
 */
function keepByteOrderMarks(tokenizer: Tokenizer): void {
  const strings = (tokenizer as unknown as { bufferedString?: { decoder?: unknown } }).bufferedString;
  if (!strings || !(strings.decoder instanceof TextDecoder)) throw new Error('@streamparser/json: the tokenizer no longer decodes strings as json-lists.ts expects; check the byte-order mark handling');
  strings.decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
}

/**
 * Whether `text` still leaves the document before its first value: only punctuation and white
 * space so far. A byte-order mark there is refused (the tokenizer would skip it).
 */
function beforeFirstValue(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfeff) throw new InvalidJson('Unexpected byte-order mark');
    // { } [ ] , : and JSON's white space
    if (c !== 0x7b && c !== 0x7d && c !== 0x5b && c !== 0x5d && c !== 0x2c && c !== 0x3a && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}
