import type { ReactNode } from 'react';
import { describeProblem } from './lib/format';
import { followLink } from './lib/navigation';

export function Link({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  return (
    <a href={to} onClick={followLink} className={className}>
      {children}
    </a>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorMessage({ error, status }: { error: unknown; status?: number }) {
  const problem = describeProblem(error, status);
  return (
    <div className="error" role="alert">
      <p>{problem.message}</p>
      {problem.fields.length > 0 && (
        <ul>
          {problem.fields.map((field) => (
            <li key={field}>{field}</li>
          ))}
        </ul>
      )}
      {problem.reference && <p className="muted small">Reference: {problem.reference}</p>}
    </div>
  );
}

export function SeverityBadge({ severity }: { severity: string }) {
  return <span className={`badge severity-${severity}`}>{severity}</span>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}
