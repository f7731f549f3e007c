import type { ReportDocument } from '../reports/report-document';
import { documentDigest } from '../reports/report-renderers';
import { renderPdf } from '../reports/report-pdf';

/**
 * Entry point that report-pdf-bundle.int-spec.ts bundles with the apps' webpack configuration: it
 * reads a report document (JSON) on stdin and writes its PDF to stdout, proving that pdfkit works
 * from a bundle as it does from the sources.
 */
async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const document = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReportDocument;
  process.stdout.write(await renderPdf(document, documentDigest(document)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
