// Types of the parts of tools/validate-monitoring.mjs that its tests import.
export interface PromqlMatcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}
export interface PromqlSelector {
  name: string | undefined;
  matchers: PromqlMatcher[];
}
export function promqlSelectors(expr: string): { selectors: PromqlSelector[]; groupingLabels: string[] };
export function fillGrafanaVariables(expr: string): string;
export function headingAnchors(markdown: string): Set<string>;
export function canonical(value: unknown): string;
export const MONITORING_FILES: Record<'rules' | 'rulesTest' | 'prometheusRule' | 'dashboard' | 'operations', string>;
export const VIGIL_JOB: string;
