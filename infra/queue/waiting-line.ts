// The messages of one subject waiting for a consumer, kept per key (EnqueueOptions.key) so a
// consumer can take them in arrival order or serve the keys in turn (ConsumeOptions.maxPerKey).
// Redeliveries go to the head of their key's line, as JetStream serves its redelivery queue first.
export interface Waiting {
  readonly key: string;
  /** Arrival order across keys; a redelivery is given one lower than any waiting message. */
  place: number;
}

export class WaitingLine<M extends Waiting> {
  private readonly lines = new Map<string, M[]>();
  /** Keys with waiting messages, in the order they take turns. */
  private turns: string[] = [];
  private turn = 0;
  private first = 0;
  private last = 0;
  size = 0;

  push(message: M): void {
    message.place = ++this.last;
    this.lineOf(message.key).push(message);
    this.size++;
  }

  /** Back at the head of the line: a redelivery. */
  unshift(message: M): void {
    message.place = --this.first;
    this.lineOf(message.key).unshift(message);
    this.size++;
  }

  remove(message: M): boolean {
    const line = this.lines.get(message.key);
    const index = line?.indexOf(message) ?? -1;
    if (!line || index < 0) return false;
    line.splice(index, 1);
    this.size--;
    if (!line.length) this.drop(message.key);
    return true;
  }

  /** The message that arrived first, whatever its key. */
  takeOldest(): M | undefined {
    let oldest: M[] | undefined;
    for (const line of this.lines.values()) if (!oldest || line[0]!.place < oldest[0]!.place) oldest = line;
    return oldest ? this.shift(oldest) : undefined;
  }

  /** The head of the next key in turn that `may` take one more; that key's turn is then over. */
  takeFair(may: (key: string) => boolean): M | undefined {
    for (let i = 0; i < this.turns.length; i++) {
      const index = (this.turn + i) % this.turns.length;
      const key = this.turns[index]!;
      if (!may(key)) continue;
      this.turn = index + 1;
      return this.shift(this.lines.get(key)!);
    }
    return undefined;
  }

  clear(): void {
    this.lines.clear();
    this.turns = [];
    this.turn = 0;
    this.size = 0;
  }

  private lineOf(key: string): M[] {
    let line = this.lines.get(key);
    if (!line) {
      line = [];
      this.lines.set(key, line);
      this.turns.push(key);
    }
    return line;
  }

  private shift(line: M[]): M {
    const message = line.shift()!;
    this.size--;
    if (!line.length) this.drop(message.key);
    return message;
  }

  private drop(key: string): void {
    this.lines.delete(key);
    const index = this.turns.indexOf(key);
    this.turns.splice(index, 1);
    if (index < this.turn) this.turn--;
    if (this.turn >= this.turns.length) this.turn = 0;
  }
}
