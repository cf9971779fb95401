import { execFileSync } from 'node:child_process';
import { firstTokenCommand } from './token-hint';

describe(firstTokenCommand.name, () => {
  it('puts the DATABASE_URL in front of the command, quoted for the shell', () => {
    expect(firstTokenCommand('mariadb://root@127.0.0.1:3306/irs')).toEqual({
      command: "DATABASE_URL='mariadb://root@127.0.0.1:3306/irs' npm run token -- create --admin",
      masked: false,
    });
  });

  it('is the bare command when DATABASE_URL is unset', () => {
    expect(firstTokenCommand(undefined)).toEqual({ command: 'npm run token -- create --admin', masked: false });
  });

  it('never prints a password: it is masked, and the caller says so', () => {
    const { command, masked } = firstTokenCommand('mysql://app:s3cret@db.internal:3306/irs');
    expect(command).toBe("DATABASE_URL='mysql://app:PASSWORD@db.internal:3306/irs' npm run token -- create --admin");
    expect(command).not.toContain('s3cret');
    expect(masked).toBe(true);
  });

  it('gives the shell exactly the URL, whatever characters it holds', () => {
    const url = "mysql://root@host:3306/db?x=it's&y=$HOME";
    const { command } = firstTokenCommand(url);
    const seen = execFileSync('sh', ['-c', `${command.replace(' npm run token -- create --admin', '')} sh -c 'printf %s "$DATABASE_URL"'`], { encoding: 'utf8' });
    expect(seen).toBe(url);
  });
});
