// The README lists the events of the public union: each one, in the union's order, so a host
// reading it learns of every event it may receive. The union is read from its source, so an
// event added to `AgentEvent` and not to the README fails here.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The `type` strings of `AgentEvent`, in the union's order (each member is an interface of its file). */
function unionEventTypes(): string[] {
  const path = join(root, 'src/events/agent-event.ts');
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
  const interfaces = new Map(source.statements.filter(ts.isInterfaceDeclaration).map((declaration) => [declaration.name.text, declaration]));
  const alias = source.statements.find((statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === 'AgentEvent')!;
  return (alias.type as ts.UnionTypeNode).types.map((member) => {
    const name = ((member as ts.TypeReferenceNode).typeName as ts.Identifier).text;
    const declaration = interfaces.get(name);
    if (!declaration) throw new Error(`${name} is not declared in src/events/agent-event.ts; read its type here another way.`);
    const type = declaration.members.find((field) => ts.isPropertySignature(field) && (field.name as ts.Identifier).text === 'type') as ts.PropertySignature;
    return ((type.type as ts.LiteralTypeNode).literal as ts.StringLiteral).text;
  });
}

/** The events the README's "Events (one union on `type`)" item names, in order. */
function readmeEventTypes(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const item = /^- Events \(one union on `type`\): ([\s\S]*?)\.\n/m.exec(readme)![1]!;
  return [...item.matchAll(/`([a-z-]+)`/g)].map((match) => match[1]!);
}

describe('README: the event list', () => {
  it('names every event of the AgentEvent union, in its order', () => {
    const union = unionEventTypes();
    expect(union.length).toBeGreaterThan(20);
    expect(readmeEventTypes()).toEqual(union);
  });
});
