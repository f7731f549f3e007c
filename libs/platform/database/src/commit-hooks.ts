import {
  type EntityManager,
  EventSubscriber,
  type EntitySubscriberInterface,
  type QueryRunner,
  type TransactionCommitEvent,
  type TransactionRollbackEvent,
} from 'typeorm';

interface Pending {
  depth: number;
  callback: () => void;
}

const pending = new WeakMap<QueryRunner, Pending[]>();

/** TypeORM keeps the savepoint depth on the runner without exposing it in its types. */
function depthOf(runner: QueryRunner): number {
  return (runner as unknown as { transactionDepth?: number }).transactionDepth ?? (runner.isTransactionActive ? 1 : 0);
}

/**
 * Runs `callback` once the transaction `manager` belongs to has committed, and never if it rolls
 * back (work registered inside a savepoint that is rolled back is forgotten with it). Outside a
 * transaction the statement has already committed, so the callback runs at once. Callbacks must
 * not throw: the commit has happened and cannot report a failure; errors are swallowed.
 */
export function afterCommit(manager: EntityManager, callback: () => void): void {
  const runner = manager.queryRunner;
  if (!runner || !runner.isTransactionActive) {
    safely(callback);
    return;
  }
  const list = pending.get(runner) ?? [];
  list.push({ depth: depthOf(runner), callback });
  pending.set(runner, list);
}

function safely(callback: () => void) {
  try {
    callback();
  } catch {
    /* an after-commit callback is an optimisation or a notification; the data is already safe */
  }
}

/** The TypeORM subscriber behind `afterCommit`; registered on every service data source. */
@EventSubscriber()
export class CommitHooks implements EntitySubscriberInterface {
  afterTransactionCommit(event: TransactionCommitEvent): void {
    const list = pending.get(event.queryRunner);
    if (!list) return;
    if (event.queryRunner.isTransactionActive) {
      // A released savepoint is not a commit: its work now belongs to the enclosing level (so a
      // later rollback of a sibling savepoint at the same depth does not take it), and waits for
      // the outermost commit.
      const depth = depthOf(event.queryRunner);
      for (const item of list) item.depth = Math.min(item.depth, depth);
      return;
    }
    pending.delete(event.queryRunner);
    for (const item of list) safely(item.callback);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    const list = pending.get(event.queryRunner);
    if (!list) return;
    const depth = depthOf(event.queryRunner);
    const kept = event.queryRunner.isTransactionActive ? list.filter((item) => item.depth <= depth) : [];
    if (kept.length) pending.set(event.queryRunner, kept);
    else pending.delete(event.queryRunner);
  }
}
