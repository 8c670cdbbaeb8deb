import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, toolOutput } from 'agent-harness';

/** The writing assistant's tools: read the profile and the material, write the draft section by section. */
export function writingTools(options: { materialDir: string; draftFile: string }) {
  const sections = new Map<string, string>();

  const profileReader = defineTool({
    name: 'profile_reader',
    description: "Reads the author's profile: name, voice, audience, what to avoid, target length.",
    inputSchema: z.object({}),
    readOnly: true,
    execute: async () => JSON.parse(await readFile(join(options.materialDir, 'profile.json'), 'utf8')) as unknown,
  });

  const listMaterial = defineTool({
    name: 'list_material',
    description: 'Lists the research material files (notes, interviews) available for the article.',
    inputSchema: z.object({}),
    readOnly: true,
    execute: async () => (await readdir(options.materialDir)).filter((name) => name.endsWith('.md')).join('\n'),
  });

  const readMaterial = defineTool({
    name: 'read_material',
    description: 'Reads one research material file by name (from list_material).',
    inputSchema: z.object({ name: z.string().regex(/^[\w.-]+\.md$/, 'a file name from list_material, e.g. notes.md') }),
    readOnly: true,
    execute: async ({ input }) => {
      try {
        return await readFile(join(options.materialDir, input.name), 'utf8');
      } catch {
        return toolOutput(`No material named ${input.name}; call list_material to see the files.`, { isError: true });
      }
    },
  });

  const writeSection = defineTool({
    name: 'write_section',
    description: 'Writes one section of the draft (markdown body under a heading), replacing an earlier version of the same heading.',
    inputSchema: z.object({ heading: z.string().min(1), body: z.string().min(1) }),
    kind: 'edit',
    execute: async ({ input }) => {
      sections.set(input.heading, input.body);
      const draft = [...sections].map(([heading, body]) => `## ${heading}\n\n${body}\n`).join('\n');
      await writeFile(options.draftFile, draft);
      return `Saved "${input.heading}" (${input.body.split(/\s+/).length} words); the draft has ${sections.size} section(s).`;
    },
  });

  return { tools: [profileReader, listMaterial, readMaterial, writeSection], sections };
}
