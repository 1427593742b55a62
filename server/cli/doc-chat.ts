#!/usr/bin/env node
/**
 * `doc-chat`: the command-line client. `serve`, `token` and `open` run on the server's host with its configuration; `ingest`
 * and `ask` talk to a running service over its HTTP API, reached through --url/DOC_CHAT_URL with --token/DOC_CHAT_TOKEN.
 * Exit codes: 0 done, 1 failed (or a document was not ingested), 2 wrong usage.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../config.js';
import { ask } from './ask-command.js';
import { CliError } from './cli-error.js';
import { DocChatClient } from './doc-chat-client.js';
import { ingest } from './ingest-command.js';
import { DEFAULT_TOKEN_TTL_SECONDS, issueLocalToken, parseTtl } from './issue-token.js';
import { progressFor } from './progress.js';

const JOB_POLL_MS = 500;

/** Commander's way to refuse an option value: reported as a usage error. */
function asOption<T>(parse: (raw: string) => T): (raw: string) => T {
  return (raw) => {
    try {
      return parse(raw);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

function parseUrl(raw: string): string {
  if (!/^https?:\/\/[^/]/.test(raw) || !URL.canParse(raw)) throw new Error('must be an http:// or https:// URL');
  return raw;
}

function parseTag(raw: string, tags: Record<string, string> = {}): Record<string, string> {
  const at = raw.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError('a tag is name=value');
  return { ...tags, [raw.slice(0, at)]: raw.slice(at + 1) };
}

const program = new Command('doc-chat')
  .description('Ingest documents into a doc-chat service and ask questions about them.')
  .exitOverride()
  .addOption(new Option('--url <url>', 'the service').env('DOC_CHAT_URL').default('http://localhost:3000').argParser(asOption(parseUrl)))
  .addOption(new Option('--token <token>', 'bearer token for the API (prefer the variable: arguments show in ps)').env('DOC_CHAT_TOKEN'));

function client(): DocChatClient {
  const { url, token } = program.opts<{ url: string; token?: string }>();
  if (!token) throw new CliError('no token: pass --token or set DOC_CHAT_TOKEN (`doc-chat token <user>` on the server prints one)', 2);
  return new DocChatClient(url, token);
}

program
  .command('serve')
  .description("start the service (configured by the server's environment variables, as npm start)")
  .action(async () => {
    const { serveFromEnvironment } = await import('../serve.js');
    await serveFromEnvironment();
  });

program
  .command('token')
  .description('print a token the service on this host accepts (local JWT mode)')
  .argument('<user>', 'user id (the token subject)')
  .option('--ttl <seconds>', 'validity in seconds', asOption(parseTtl), DEFAULT_TOKEN_TTL_SECONDS)
  .action(async (user: string, options: { ttl: number }) => {
    process.stdout.write(`${await issueLocalToken(user, options.ttl)}\n`);
  });

program
  .command('open')
  .description('print the web app\'s address with a fresh token (local JWT mode), and open it when there is a desktop')
  .option('--user <name>', 'the user to sign in as (default: your login name)')
  .action(async (options: { user?: string }) => {
    const { openCommand } = await import('./open-command.js');
    const { url, opened } = await openCommand(options.user);
    process.stdout.write(`${url}\n`);
    if (opened) process.stderr.write('Opened in your browser.\n');
  });

program
  .command('ingest')
  .description('upload .pdf, .jpg and .jpeg files (folders: recursively) into a session and follow their ingestion')
  .argument('<paths...>', 'files or folders')
  .requiredOption('--session <id|label>', 'the session: its id, or its label (a label no session has is created)')
  .option('--tag <name=value>', 'a tag on every document, e.g. institution=irs (repeatable)', parseTag, {})
  .option('--no-progress', 'plain lines even on a terminal')
  .action(async (paths: string[], options: { session: string; tag: Record<string, string>; progress: boolean }) => {
    const progress = progressFor(process.stdout, options.progress);
    const notIngested = await ingest(client(), paths, { session: options.session, tags: options.tag, progress, pollMs: JOB_POLL_MS });
    if (notIngested > 0) process.exitCode = 1;
  });

program
  .command('ask')
  .description('ask a question; prints the answer and its sources')
  .argument('<session>', 'session id or label')
  .argument('<question>')
  .option('--institution <name>', 'only documents tagged institution=<name>')
  .option('--document <name>', 'only this document of the session, by file name or id (repeatable)', (value: string, all: string[]) => [...all, value], [])
  .action(async (session: string, question: string, options: { institution?: string; document: string[] }) => {
    process.stdout.write(await ask(client(), session, question, { institution: options.institution, documents: options.document }));
  });

try {
  await program.parseAsync();
} catch (error) {
  // Commander has already printed its message (or the help); 0 for --help and --version.
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : 2;
  else if (error instanceof CliError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
