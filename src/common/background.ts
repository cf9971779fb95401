import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Runs a function in the process's root async context: outside any request, transaction or span that
 * happens to call it. Captured when this module is first imported, at start-up, before any request.
 *
 * Background work (the webhook relay, the report worker) is woken from wherever something new appears:
 * a request's handler, or a transaction's commit. Started in that caller's context, it inherited
 * everything kept in AsyncLocalStorage there: the request's id (its log lines claimed to belong to a
 * request long answered) and, on the embedded database, the mark of the transaction that woke it (its
 * own transactions then skipped the queue and nested into whatever transaction was open, "no such
 * savepoint"). Every wake goes through here.
 */
export const outsideCaller: <R>(fn: () => R) => R = AsyncLocalStorage.snapshot();
