import { execFileSync } from 'node:child_process';

/**
 * The text of a PDF, one string per page, as poppler's `pdftotext -layout` reads it (the
 * poppler-utils package; .ci/run installs it). Tests read PDFs back the way a person's tools do,
 * not through the library that wrote them.
 */
export function pdfPages(pdf: Buffer): string[] {
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf, maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
  // Pages end with a form feed; the last one is followed by nothing.
  return text.split('\f').slice(0, -1);
}
