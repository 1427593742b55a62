import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const coreDir = path.join(repoRoot, 'core');
const adaptersDir = path.join(repoRoot, 'adapters');
const coreIndex = path.join(coreDir, 'index.ts');
const relative = (file: string) => path.relative(repoRoot, file);

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface ImportOf {
  /** The imported file, resolved (a relative specifier only). */
  target: string;
  /** The names imported (`*` for a namespace import or `export *`). */
  names: string[];
}

/** The relative imports and re-exports of a TypeScript source (static and dynamic), with the names each takes. */
export function importsOf(file: string, source = fs.readFileSync(file, 'utf8')): ImportOf[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: ImportOf[] = [];
  const resolve = (spec: string) => path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      if (spec.startsWith('.')) {
        const names: string[] = [];
        if (ts.isImportDeclaration(node)) {
          const clause = node.importClause;
          if (clause?.name) names.push('default');
          const bindings = clause?.namedBindings;
          if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
          if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.push((e.propertyName ?? e.name).text);
        } else if (!node.exportClause || ts.isNamespaceExport(node.exportClause)) names.push('*');
        else for (const e of node.exportClause.elements) names.push((e.propertyName ?? e.name).text);
        found.push({ target: resolve(spec), names });
      }
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0] ?? node)) {
      const spec = (node.arguments[0] as ts.StringLiteral).text;
      if (spec.startsWith('.')) found.push({ target: resolve(spec), names: ['*'] });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The names core/index.ts exports, as the compiler sees them (values and types, through `export *`). */
function coreExports(): Set<string> {
  const program = ts.createProgram([coreIndex], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(coreIndex)!)!;
  return new Set(checker.getExportsOfModule(symbol).map((s) => s.name));
}

/** Adapter imports from core/ of names core/index.ts does not export (a deep path is fine, a hidden name is not). */
export function hiddenCoreImports(files: string[], exported: Set<string>): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((i) => i.target.startsWith(coreDir + path.sep))
      .flatMap((i) => i.names.filter((name) => (name === '*' ? i.target !== coreIndex : !exported.has(name))).map((name) => `${relative(file)} imports ${name} from ${relative(i.target)}`)),
  );
}

/** Every import cycle among the files (strongly connected components of more than one file, or a file importing itself). */
export function importCycles(files: string[]): string[][] {
  const inSet = new Set(files);
  const edges = new Map(files.map((f) => [f, [...new Set(importsOf(f).map((i) => i.target).filter((t) => inSet.has(t)))]]));
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(relative(w));
      } while (w !== v);
      if (component.length > 1 || edges.get(v)!.includes(v)) cycles.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) connect(f);
  return cycles;
}

/**
 * Words of one domain of documents (financial statements, the first plug-in's): the core must not know them, in code
 * or comments. A plug-in under adapters/ brings them (core/ports/query-planner.ts, core/ports/answer-skill.ts).
 */
const DOMAIN_WORDS = /financ|fiscal|\bfy\s?'?\d|balance sheets?|cash flows?|income statements?|revenues?|ebitda|capex|gaap|\b10-k\b|line items?|filings?|accounts (payable|receivable)/i;

export function domainMentions(files: string[]): string[] {
  return files.flatMap((file) =>
    fs.readFileSync(file, 'utf8').split('\n').flatMap((line, i) => (DOMAIN_WORDS.test(line) ? [`${relative(file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('architecture: a domain-neutral core, adapters on its public surface, no import cycles', () => {
  const coreFiles = tsFiles(coreDir);
  const adapterFiles = tsFiles(adaptersDir);

  it('no file under core/ mentions the vocabulary of a domain of documents', () => {
    expect(coreFiles.length).to.be.greaterThan(20);
    expect(domainMentions(coreFiles)).to.deep.equal([]);
  });

  it('adapters import from core/ only names core/index.ts exports', () => {
    expect(hiddenCoreImports(adapterFiles, coreExports())).to.deep.equal([]);
  });

  it('no import cycles among the files of core/ and adapters/', () => {
    expect(importCycles([...coreFiles, ...adapterFiles])).to.deep.equal([]);
  });

  it('the checks catch what they are for', () => {
    const dir = fs.mkdtempSync(path.join(adaptersDir, '.rule-probe-'));
    try {
      const a = path.join(dir, 'a.ts');
      const b = path.join(dir, 'b.ts');
      fs.writeFileSync(a, "import { b } from './b.js';\nimport { AskQuestion, hiddenHelper } from '../../core/use-cases/ask-question.js';\nexport const a = 1;\n// the FY2018 revenue\n");
      fs.writeFileSync(b, "export { a } from './a.js';\nimport * as core from '../../core/rag/text.js';\nimport * as whole from '../../core/index.js';\n");
      expect(importCycles([a, b])).to.deep.equal([[relative(a), relative(b)].sort()]);
      expect(importCycles([a])).to.deep.equal([]);
      const hidden = hiddenCoreImports([a, b], new Set(['AskQuestion']));
      expect(hidden).to.have.length(2);
      expect(hidden[0]).to.include('hiddenHelper');
      expect(hidden[1]).to.include('* from core/rag/text.ts');
      expect(domainMentions([a, b])).to.have.length(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
