import fs from 'node:fs';
import { CONFIG_TABLE } from '../config.js';

export const TABLE_START = '<!-- config-table:start -->';
export const TABLE_END = '<!-- config-table:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

function defaultOf(variable: (typeof CONFIG_TABLE)[number]): string {
  if (variable.defaultText !== undefined) return variable.defaultText;
  if (variable.default === undefined) return '(unset)';
  return `\`${String(variable.default)}\``;
}

function aliasesOf(variable: (typeof CONFIG_TABLE)[number]): string {
  const aliases = variable.aliases ?? [];
  return aliases.length === 0 ? '' : ` (old name ${aliases.map((alias) => `\`${alias}\``).join(', ')}: still read)`;
}

/** The configuration table, derived from the families' variable declarations (server/modules/*.module.ts). */
export function configurationTable(): string {
  const rows = CONFIG_TABLE.map((variable) =>
    `| \`${variable.name}\` | ${cell(defaultOf(variable))} | ${variable.family} | ${cell(variable.meaning)}${aliasesOf(variable)}${variable.secret ? ' (secret: never repeated in errors)' : ''} |`,
  );
  return ['| Variable | Default | Family | Meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** `document` with the text between the markers replaced by the current table. */
export function withConfigurationTable(document: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the document has no ${TABLE_START} ... ${TABLE_END} section`);
  return `${document.slice(0, start + TABLE_START.length)}\n${configurationTable()}\n${document.slice(end)}`;
}

/** Rewrites the table in `file`; true when it changed. */
export function writeConfigurationTable(file: string): boolean {
  const before = fs.readFileSync(file, 'utf8');
  const after = withConfigurationTable(before);
  if (after !== before) fs.writeFileSync(file, after);
  return after !== before;
}
