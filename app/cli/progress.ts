// Progress of long CLI work (a rebuild, a replay of dead letters) for the person at the terminal:
// one line redrawn in place, `what  done/total unit  rate/s  ETA`, at most ten times a second, on
// stderr so stdout keeps the command's answer (plain text or one JSON object). Nothing is drawn
// when stderr is not a terminal: logs and scripts read the answer, and the server logs the same
// progress as JSON lines.

export interface Progress {
  what: string;
  done: number;
  /** null when the end is not known in advance (a rebuild reads until it catches up). */
  total: number | null;
  unit: string;
}

export type ProgressSink = (progress: Progress) => void;

export const noProgress: ProgressSink = () => undefined;

interface Terminal {
  write(text: string): unknown;
  isTTY?: boolean;
}

const REDRAW_MS = 100;

/** One progress line on `stream` when it is a terminal; `end()` finishes the line. */
export function terminalProgress(stream: Terminal, now: () => number = Date.now): { report: ProgressSink; end(): void } {
  if (!stream.isTTY) return { report: noProgress, end: () => undefined };
  const started = now();
  let drawn = false;
  let last = -Infinity;
  /** A step not drawn yet (it came too soon after the last line): the end draws it. */
  let pending: Progress | null = null;
  const draw = (progress: Progress) => {
    stream.write(`\r\x1b[K${progressLine(progress, (now() - started) / 1000)}`);
    drawn = true;
    pending = null;
    last = now();
  };
  return {
    report: (progress) => {
      if (now() - last < REDRAW_MS && progress.done !== progress.total) pending = progress;
      else draw(progress);
    },
    end: () => {
      if (pending) draw(pending);
      if (drawn) stream.write('\n');
    },
  };
}

/** `rebuilding projections  12,000/50,000 events  24%  4,100/s  ETA 9 s` */
export function progressLine(progress: Progress, seconds: number): string {
  const number = (n: number) => n.toLocaleString('en');
  const rate = seconds > 0 ? progress.done / seconds : 0;
  const parts = [progress.what, progress.total === null ? `${number(progress.done)} ${progress.unit}` : `${number(progress.done)}/${number(progress.total)} ${progress.unit}`];
  if (progress.total) parts.push(`${Math.floor((100 * progress.done) / progress.total)}%`);
  if (rate > 0) parts.push(`${number(Math.round(rate))}/s`);
  if (progress.total && rate > 0 && progress.done < progress.total) parts.push(`ETA ${Math.ceil((progress.total - progress.done) / rate)} s`);
  return parts.join('  ');
}
