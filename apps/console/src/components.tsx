import type { ReactNode } from 'react';
import { absoluteTime, describeProblem, relativeTime } from './lib/format';
import { localTime } from './lib/time';
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

/** A time in the viewer's zone, with the UTC instant on hover (and to assistive technology via `title`). */
export function Time({ iso, relative }: { iso: string | null | undefined; relative?: boolean }) {
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} title={absoluteTime(iso)}>
      {relative ? relativeTime(iso, new Date()) : localTime(iso)}
    </time>
  );
}

/**
 * A labelled form field whose input is marked invalid, with its message, when `error` (the form's
 * own check or the API's problem document, by field path) is set.
 */
export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: (props: { id: string; 'aria-invalid': boolean | undefined; 'aria-describedby': string | undefined; className: string | undefined }) => ReactNode }) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described, className: error ? 'invalid' : undefined })}
      {hint && (
        <span id={`${id}-hint`} className="muted small">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** The page's answer to an action: a notice, or the problem the API sent. */
export function ActionResult({ notice, failure }: { notice: string; failure?: { error: unknown; status?: number } }) {
  return (
    <>
      <div role="status" className="notice">
        {notice}
      </div>
      {failure && <ErrorMessage error={failure.error} status={failure.status} />}
    </>
  );
}
