import { PRIVILEGED_OPS, ReportDefinitions } from './report-definitions';

describe('report definitions', () => {
  // A list section reads its statements through the partial index of PRIVILEGED_OPS: an
  // operation outside it would never be listed.
  const lists = Object.values(ReportDefinitions).flatMap((d) => d.sections.filter((s) => s.kind === 'list').map((s) => [`${d.type}/${s.id}`, s] as const));

  it.each(lists)('%s lists only privileged operations', (_, section) => {
    for (const operation of section.filter.operations ?? []) expect(PRIVILEGED_OPS).toContain(operation);
  });
});
