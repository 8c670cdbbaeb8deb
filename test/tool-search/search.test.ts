import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeferredToolCatalog, regexSearch, searchableTool, tokenize } from '../../src/tool-search/index.js';
import type { ToolDefinition } from '../../src/model/model.js';

const tool = (name: string, description: string, properties: Record<string, { type: string; description?: string }> = {}): ToolDefinition => ({
  name,
  description,
  input_schema: { type: 'object', properties },
});

const catalog = () =>
  new DeferredToolCatalog([
    tool('mcp__github__create_issue', 'Create a new issue in a GitHub repository.', { repo: { type: 'string', description: 'owner/name' }, title: { type: 'string' } }),
    tool('mcp__github__list_pull_requests', 'List pull requests of a repository.'),
    tool('mcp__slack__post_message', 'Post a message to a Slack channel.', { channel: { type: 'string', description: 'Channel id, e.g. C123' } }),
    tool('getWeatherForecast', 'Weather for the next days.', { city: { type: 'string', description: 'City name' } }),
    tool('mcp__jira__create_issue', 'Create a Jira ticket.'),
  ]);

describe('tokenize', () => {
  it('splits MCP names, snake_case and camelCase into words, drops filler words, folds plurals and maps action verbs', () => {
    expect(tokenize('mcp__github__list_pull_requests')).toEqual(['mcp', 'github', 'list', 'pull', 'request']);
    expect(tokenize('getWeatherForecast')).toEqual(['get', 'weather', 'forecast']);
    expect(tokenize('Send a message to the team')).toEqual(['create', 'message', 'team']);
    expect(tokenize('cancel the meeting, edit a note, show details')).toEqual(['delete', 'meeting', 'update', 'note', 'get', 'detail']);
    expect(tokenize('queries, issues and HTTPServer')).toEqual(['query', 'issue', 'http', 'server']);
  });

  it('keeps words that are names of Object.prototype members as words (no inherited lookup)', () => {
    expect(tokenize('constructor toString valueOf hasOwnProperty')).toEqual(['constructor', 'string', 'value', 'has', 'own', 'property']);
    expect(tokenize('__proto__ constructor').every((term) => typeof term === 'string')).toBe(true);
  });
});

describe('keyword search (BM25)', () => {
  it('ranks the tool whose name and description carry the words first', () => {
    const names = catalog().searchKeywords('create a github issue', 5).map((definition) => definition.name);
    expect(names[0]).toBe('mcp__github__create_issue');
    expect(names).toContain('mcp__jira__create_issue');
  });

  it('reads argument names and descriptions too', () => {
    expect(catalog().searchKeywords('channel', 5).map((definition) => definition.name)).toEqual(['mcp__slack__post_message']);
    expect(catalog().searchKeywords('city', 5).map((definition) => definition.name)).toEqual(['getWeatherForecast']);
  });

  it('returns nothing for words no tool has, and at most `limit` tools', () => {
    expect(catalog().searchKeywords('kubernetes', 5)).toEqual([]);
    expect(catalog().searchKeywords('', 5)).toEqual([]);
    expect(catalog().searchKeywords('create issue repository', 1)).toHaveLength(1);
  });

  it('finds any tool of a catalog by its own name (property)', () => {
    const word = fc.string({ unit: fc.constantFrom(...'bcdfghjklmnpqrvwxz'), minLength: 4, maxLength: 8 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 30 }), fc.nat(), (words, pick) => {
        const tools = words.map((name) => tool(`mcp__srv__${name}`, `Does ${name} things.`));
        const target = tools[pick % tools.length]!;
        const found = new DeferredToolCatalog(tools).searchKeywords(target.name.split('__').at(-1)!, 3);
        return found[0]?.name === target.name;
      }),
    );
  });
});

describe('regex search (the Messages API dialect)', () => {
  const searchable = [
    tool('mcp__slack__post_message', 'Post a message to a Slack channel.'),
    tool('get_user_data', 'Reads a user.', { id: { type: 'string', description: 'the SSN of the user' } }),
    tool('Slack_Export', 'Exports everything.'),
  ].map(searchableTool);

  it('is case-sensitive like re.search unless the pattern starts with (?i)', () => {
    expect(regexSearch(searchable, 'slack', 5)).toEqual({ ok: true, names: ['mcp__slack__post_message'] });
    expect(regexSearch(searchable, '(?i)slack', 5)).toEqual({ ok: true, names: ['mcp__slack__post_message', 'Slack_Export'] });
  });

  it('matches names first, then descriptions and arguments', () => {
    expect(regexSearch(searchable, '(?i)user|export', 5)).toEqual({ ok: true, names: ['get_user_data', 'Slack_Export'] });
    expect(regexSearch(searchable, 'SSN', 5)).toEqual({ ok: true, names: ['get_user_data'] });
  });

  it('takes Python named groups and refuses invalid or overlong patterns with a reason', () => {
    expect(regexSearch(searchable, '(?P<verb>get)_user', 5)).toEqual({ ok: true, names: ['get_user_data'] });
    expect(regexSearch(searchable, '([unclosed', 5)).toMatchObject({ ok: false, message: expect.stringMatching(/Invalid regular expression/) });
    expect(regexSearch(searchable, 'a'.repeat(201), 5)).toEqual({ ok: false, message: 'The pattern has 201 characters; the limit is 200.' });
    expect(regexSearch(searchable, '', 5)).toMatchObject({ ok: false });
  });

  it('never throws, whatever the pattern (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (pattern) => {
        const result = regexSearch(searchable, pattern, 5);
        return result.ok ? result.names.length <= 5 : typeof result.message === 'string';
      }),
    );
  });
});

describe('DeferredToolCatalog', () => {
  it('adds a tool once, by name, and keeps catalog order', () => {
    const deferred = catalog();
    const added = deferred.add([tool('mcp__github__create_issue', 'duplicate'), tool('late_tool', 'Came later.')]);
    expect(added.map((definition) => definition.name)).toEqual(['late_tool']);
    expect(deferred.size).toBe(6);
    expect(deferred.get('mcp__github__create_issue')!.description).toBe('Create a new issue in a GitHub repository.');
    expect(deferred.searchKeywords('came later', 5).map((definition) => definition.name)).toEqual(['late_tool']);
  });
});
