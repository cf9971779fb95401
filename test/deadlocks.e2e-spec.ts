import { Connection, createConnection } from 'mysql2/promise';
import { ENGINE } from '../src/config/engine';
import { sqlDate } from '../src/database/column-types';
import { transaction } from '../src/database/transaction';
import { TestApp, bearer, uniq, useTestApp } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';

const onMysql = ENGINE === 'mysql' ? describe : describe.skip;
const ANSWER = 'It mostly went well, apart from the import, which took me two whole evenings.';

/**
 * Deadlocks are the database's way out of two transactions waiting on each other; InnoDB rolls one
 * back. Here a second connection (a "heavy" transaction: InnoDB rolls back the one that changed less)
 * makes the service's transaction the one rolled back, for real, and the service runs it again.
 */
onMysql('Deadlocks are retried, not reported (MySQL/MariaDB only)', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  /** The other transaction's connection, and one that watches (the other one blocks while it waits). */
  let other: Connection;
  let observer: Connection;
  let heavyOrg: string;
  let heavyIDs: string[];

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!.replace(/^mariadb:/i, 'mysql:'));
    const connect = () =>
      createConnection({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password), database: url.pathname.slice(1) });
    other = await connect();
    observer = await connect();
    // Rows for the other transaction to change first, so that it weighs more than the service's.
    heavyOrg = uniq('heavy');
    const at = sqlDate(new Date());
    heavyIDs = Array.from({ length: 300 }, (_, i) => `${heavyOrg}-${i}`);
    const values = heavyIDs.map((id) => [id, 'heavy', heavyOrg, at, at]);
    await other.query('INSERT INTO products (id, name, org_id, created_at, updated_at) VALUES ?', [values]);
  });

  afterAll(async () => {
    await other.query('ROLLBACK');
    await other.query('DELETE FROM products WHERE id IN (?)', [heavyIDs]);
    await other.end();
    await observer.end();
  });

  /**
   * Resolves once another connection is running a statement that mentions `table` and FOR UPDATE (a
   * statement waiting on a row lock shows in the process list, whatever state InnoDB reports).
   */
  async function lockRequested(table: string): Promise<void> {
    for (let tries = 0; tries < 500; tries++) {
      // The table named as written by hand or, quoted, by TypeORM.
      const [rows] = await observer.query(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND (INFO LIKE ? OR INFO LIKE ?) AND INFO LIKE '%FOR UPDATE%'",
        [`%FROM ${table} %`, `%FROM \`${table}\`%`],
      );
      if (Number((rows as { n: number }[])[0].n) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no connection asked for a lock on ${table}`);
  }

  /**
   * Begins the other transaction with 300 rows changed, one by one by primary key: one statement over
   * them all may scan the index, and a scanning UPDATE locks every row it reads.
   */
  async function beginHeavy(): Promise<void> {
    await other.query('BEGIN');
    for (const id of heavyIDs) await other.query('UPDATE products SET updated_at = ? WHERE id = ?', [sqlDate(new Date()), id]);
  }

  it('runs a transaction InnoDB rolled back to break a deadlock again, and it commits', async () => {
    const a = await makeProduct(t, admin, { orgID: uniq('org'), name: 'A' });
    const b = await makeProduct(t, admin, { orgID: uniq('org'), name: 'B' });
    let attempts = 0;
    let holdingA!: () => void;
    const heldA = new Promise<void>((resolve) => (holdingA = resolve));

    await beginHeavy();
    await other.query('SELECT id FROM products WHERE id = ? FOR UPDATE', [b]);
    const work = transaction(t.db, async (db) => {
      attempts++;
      await db.query('SELECT id FROM products WHERE id = ? FOR UPDATE', [a]);
      // The first time, say so and ask for B, which the other holds: it waits, until the other asks for A.
      if (attempts === 1) holdingA();
      await db.query('SELECT id FROM products WHERE id = ? FOR UPDATE', [b]);
      await db.query('UPDATE products SET name = ? WHERE id = ?', ['A, renamed', a]);
      return 'committed';
    });
    await heldA;
    // A deadlock: InnoDB rolls back the lighter transaction (the work's), and the other gets A.
    await other.query('SELECT id FROM products WHERE id = ? FOR UPDATE', [a]);
    await other.query('COMMIT');

    await expect(work).resolves.toBe('committed');
    expect(attempts).toBe(2);
    const [rows] = await other.query('SELECT name FROM products WHERE id = ?', [a]);
    expect(rows).toEqual([{ name: 'A, renamed' }]);
  });

  it('answers a room reply whose transaction deadlocked: 200, the interview completed once', async () => {
    const orgID = uniq('org');
    const productID = await makeProduct(t, admin, { orgID, name: 'Acme Notes' });
    const interviewID = await makeInterview(t, admin, productID, { guidelines: 'What do you use it for?' });
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 2 }).set(bearer(admin));
    const [first, second] = (res.body.result as string[]).map((url) => new URL(url).pathname.split('/').pop()!);
    const person = { name: 'Ada Lovelace', email: `${uniq('ada')}@example.com`.toLowerCase(), consent: true };
    // The first interview makes the person's profile, which the second one's completion locks.
    for (const linkID of [first, second]) {
      await t.http.post(`/i/${linkID}/start`).send(person).expect(200);
      await t.http.post(`/i/${linkID}/reply`).send({ content: ANSWER }).expect(200);
    }
    expect((await t.http.post(`/i/${first}/reply`).send({ content: 'No, that is all.' }).expect(200)).body.result.status).toBe('completed');
    const [profiles] = await other.query('SELECT id FROM profiles WHERE email = ?', [person.email]);
    const profileID = (profiles as { id: string }[])[0].id;

    // The other transaction holds the profile; the completing reply locks the invite and waits for the
    // profile; then the other asks for the invite: a deadlock, and the reply's transaction is rolled back.
    await beginHeavy();
    await other.query('SELECT id FROM profiles WHERE id = ? FOR UPDATE', [profileID]);
    // then() sends the request now; it is awaited once the deadlock has happened.
    const answered = t.http
      .post(`/i/${second}/reply`)
      .send({ content: 'No, that is all.' })
      .then((r) => r);
    await lockRequested('profiles');
    await other.query('SELECT link_id FROM invites WHERE link_id = ? FOR UPDATE', [second]);
    await other.query('COMMIT');

    const response = await answered;
    expect({ status: response.status, result: response.body.result.status }).toEqual({ status: 200, result: 'completed' });
    const invite = (await t.http.get('/v1/invites/getOne').query({ linkID: second }).set(bearer(admin))).body.result;
    expect(invite.status).toBe('completed');
    expect(invite.conversation.filter((turn: { role: string }) => turn.role === 'interviewee')).toHaveLength(2);
    const profile = (await t.http.get('/v1/profiles/getOne').query({ profileID }).set(bearer(admin))).body.result;
    expect(profile.metadata.interview_count).toBe(2);
    // It was a deadlock, and the transaction rolled back was the reply's (the one that changed nothing yet).
    const [[status]] = (await observer.query('SHOW ENGINE INNODB STATUS')) as unknown as [{ Status: string }[]];
    const deadlock = status.Status.split('LATEST DETECTED DEADLOCK')[1]?.split('\nTRANSACTIONS\n')[0] ?? '';
    const victim = /WE ROLL BACK TRANSACTION \((\d)\)/.exec(deadlock)?.[1];
    const [, one, two] = deadlock.split(/\*\*\* \((?:1|2)\) TRANSACTION:/);
    const rolledBack = victim === '1' ? one : two;
    expect(rolledBack).toMatch(/FROM `?profiles`? /);
    expect(rolledBack).not.toContain('undo log entries 300');
  });
});
