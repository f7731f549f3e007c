import type { Logger } from 'pino';
import type { ResolvedLogFormat } from './logger';

/** One line of a start-up banner: a label for people, a field name for log collectors. */
export interface BannerLine {
  label: string;
  value: string;
  /** Key of the value in the structured (JSON) form of the banner, snake_case. */
  field: string;
  /** Shown after the value on a terminal, e.g. how to change it. */
  note?: string;
}

/** Lines shown together; sections are separated by an empty line. */
export type BannerSection = readonly BannerLine[];

/**
 * What a service wants its operator to see once it has started (e.g. a generated administrator
 * password): collected during start, printed once in the start-up banner after everything is up.
 */
export class StartNotices {
  private readonly lines: BannerLine[] = [];
  add(...lines: BannerLine[]): void {
    this.lines.push(...lines);
  }
  list(): BannerSection {
    return [...this.lines];
  }
}

/** The banner as plain text lines, labels aligned. */
export function renderBanner(title: string, sections: readonly BannerSection[]): string {
  const shown = sections.filter((section) => section.length > 0);
  const width = Math.max(0, ...shown.flat().map((line) => line.label.length));
  const body = shown.map((section) =>
    section.map((line) => `  ${line.label.padEnd(width)}  ${line.value}${line.note ? `   (${line.note})` : ''}`).join('\n'),
  );
  return `\n  ${title}\n\n${body.join('\n\n')}\n\n`;
}

/**
 * Prints the start-up banner: plain text on stdout when logs are human-readable (a terminal), or
 * one structured log line carrying every value under its field name when logs are JSON, so a log
 * collector keeps the addresses. A value in the banner is shown on purpose, including a generated
 * password, which appears in no other line.
 */
export function printBanner(logger: Logger, format: ResolvedLogFormat, title: string, sections: readonly BannerSection[]): void {
  if (format === 'pretty') {
    process.stdout.write(renderBanner(title, sections));
    return;
  }
  const fields = Object.fromEntries(sections.flat().map((line) => [line.field, line.value]));
  logger.info({ banner: true, ...fields }, title);
}
