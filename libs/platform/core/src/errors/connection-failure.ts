/** SQLSTATEs that mean the connection, not the statement, failed: class 08, server shutting down or starting, too many connections. */
const CONNECTION_STATES = /^(08...|57P01|57P02|57P03|53300)$/;
/** What the `pg` driver and Node's sockets raise when a connection is refused, cut or never made. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;

/**
 * Whether an error from a query or transaction is the database connection being lost or refused
 * rather than the statement failing (TypeORM's QueryFailedError is looked through to the driver's
 * error). Such a failure says nothing about the data: retry later, never treat the input as bad.
 */
export function isConnectionFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_STATES.test(code) || CONNECTION_CODES.has(code))) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
