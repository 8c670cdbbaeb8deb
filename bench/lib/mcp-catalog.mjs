// A realistic catalog of 200 MCP tools over ten services, for the tool search benchmark: names,
// descriptions and input schemas in the style of public MCP servers (GitHub, Slack, Jira, ...).

const id = (what) => ({ type: 'string', description: `The ${what} id.` });
const text = (description) => ({ type: 'string', description });
const limit = { type: 'integer', description: 'How many results to return at most (1-100).' };
const cursor = { type: 'string', description: 'Cursor from the previous page.' };

/** Services, each with resources (singular, plural, what else people call it, fields). */
const SERVICES = [
  ['github', 'GitHub', [
    ['issue', 'issues', 'bug report, ticket', { owner: text('Repository owner.'), repo: text('Repository name.'), title: text('Issue title.'), body: text('Markdown body.') }],
    ['pull_request', 'pull requests', 'PR, merge request, code review', { owner: text('Repository owner.'), repo: text('Repository name.'), head: text('Branch with the changes.'), base: text('Branch to merge into.') }],
    ['branch', 'branches', 'git branch', { owner: text('Repository owner.'), repo: text('Repository name.'), branch: text('Branch name.') }],
    ['release', 'releases', 'version tag, changelog release', { owner: text('Repository owner.'), repo: text('Repository name.'), tag: text('Tag name, e.g. v1.2.0.') }],
  ]],
  ['slack', 'Slack', [
    ['message', 'messages', 'chat post, notification', { channel: text('Channel id or #name.'), text: text('Message text (mrkdwn).') }],
    ['channel', 'channels', 'chat room, conversation', { name: text('Channel name.'), private: { type: 'boolean', description: 'Private channel.' } }],
    ['reminder', 'reminders', 'follow-up, nudge', { text: text('What to remind about.'), time: text('When, e.g. "in 2 hours".') }],
    ['user_group', 'user groups', 'team handle, @mention group', { handle: text('Group handle.'), users: { type: 'array', items: { type: 'string' }, description: 'Member user ids.' } }],
  ]],
  ['jira', 'Jira', [
    ['issue', 'issues', 'ticket, story, bug', { project: text('Project key, e.g. ENG.'), summary: text('One-line summary.'), issue_type: text('Bug, Story or Task.') }],
    ['sprint', 'sprints', 'iteration', { board: id('board'), name: text('Sprint name.') }],
    ['comment', 'comments', 'note on a ticket', { issue_key: text('Issue key, e.g. ENG-42.'), body: text('Comment text.') }],
    ['worklog', 'worklogs', 'time spent, time tracking', { issue_key: text('Issue key.'), time_spent: text('Duration, e.g. 2h 30m.') }],
  ]],
  ['gdrive', 'Google Drive', [
    ['file', 'files', 'document, upload', { name: text('File name.'), folder: id('folder'), mime_type: text('MIME type.') }],
    ['folder', 'folders', 'directory', { name: text('Folder name.'), parent: id('parent folder') }],
    ['permission', 'permissions', 'sharing, access', { file: id('file'), email: text('Who to share with.'), role: text('reader, commenter or writer.') }],
    ['revision', 'revisions', 'version history', { file: id('file') }],
  ]],
  ['calendar', 'Google Calendar', [
    ['event', 'events', 'meeting, appointment', { calendar: id('calendar'), summary: text('Title.'), start: text('Start time (RFC 3339).'), end: text('End time (RFC 3339).') }],
    ['calendar', 'calendars', 'schedule', { summary: text('Calendar name.'), time_zone: text('IANA time zone.') }],
    ['attendee', 'attendees', 'guest, invitee', { event: id('event'), email: text('Guest email.') }],
    ['availability', 'availabilities', 'free/busy, free time slot', { emails: { type: 'array', items: { type: 'string' }, description: 'People to check.' }, window: text('Time window.') }],
  ]],
  ['postgres', 'PostgreSQL', [
    ['query', 'queries', 'SQL statement, select', { sql: text('The SQL to run (read-only).') }],
    ['table', 'tables', 'schema, relation', { schema: text('Schema name.'), table: text('Table name.') }],
    ['index', 'indexes', 'database index, performance', { table: text('Table name.'), columns: { type: 'array', items: { type: 'string' }, description: 'Indexed columns.' } }],
    ['migration', 'migrations', 'schema change', { name: text('Migration name.'), sql: text('DDL statements.') }],
  ]],
  ['sentry', 'Sentry', [
    ['error_event', 'error events', 'exception, crash, stack trace', { project: text('Project slug.'), query: text('Search query.') }],
    ['alert_rule', 'alert rules', 'notification rule, alerting', { project: text('Project slug.'), name: text('Rule name.') }],
    ['release', 'releases', 'deploy, version', { version: text('Release version.'), project: text('Project slug.') }],
    ['issue_assignment', 'issue assignments', 'owner of an error, triage', { issue: id('Sentry issue'), assignee: text('User or team.') }],
  ]],
  ['stripe', 'Stripe', [
    ['customer', 'customers', 'client, buyer account', { email: text('Customer email.'), name: text('Customer name.') }],
    ['payment', 'payments', 'charge, payment intent', { amount: { type: 'integer', description: 'Amount in cents.' }, currency: text('ISO currency code.') }],
    ['refund', 'refunds', 'money back, chargeback reversal', { payment: id('payment'), amount: { type: 'integer', description: 'Amount in cents; all when omitted.' } }],
    ['invoice', 'invoices', 'bill, billing document', { customer: id('customer'), due_date: text('Due date (YYYY-MM-DD).') }],
  ]],
  ['notion', 'Notion', [
    ['page', 'pages', 'doc, wiki page, note', { parent: id('parent page or database'), title: text('Page title.') }],
    ['database', 'databases', 'table, tracker', { parent: id('parent page'), title: text('Database title.') }],
    ['block', 'blocks', 'paragraph, content block', { page: id('page'), content: text('Markdown content.') }],
    ['comment', 'comments', 'discussion, remark', { page: id('page'), text: text('Comment text.') }],
  ]],
  ['linear', 'Linear', [
    ['issue', 'issues', 'task, bug, ticket', { team: text('Team key.'), title: text('Issue title.'), priority: { type: 'integer', description: '0 (none) to 4 (low).' } }],
    ['project', 'projects', 'initiative, roadmap item', { name: text('Project name.'), lead: text('Project lead.') }],
    ['cycle', 'cycles', 'sprint, iteration', { team: text('Team key.'), starts_at: text('Start date.') }],
    ['label', 'labels', 'tag, category', { name: text('Label name.'), color: text('Hex color.') }],
  ]],
];

const VERBS = [
  ['create', (r, s, alias) => `Create a new ${r} in ${s} (${alias}).`, (fields) => ({ ...fields })],
  ['list', (r, s, alias, plural) => `List ${plural} in ${s}, newest first, with filters and pagination (${alias}).`, () => ({ limit, cursor })],
  ['get', (r, s, alias) => `Get one ${r} from ${s} by its id, with all its fields (${alias}).`, (_fields, r) => ({ [`${r}_id`]: id(r) })],
  ['update', (r, s, alias) => `Update fields of an existing ${r} in ${s} (${alias}).`, (fields, r) => ({ [`${r}_id`]: id(r), ...fields })],
  ['delete', (r, s, alias) => `Delete a ${r} from ${s}. This cannot be undone (${alias}).`, (_fields, r) => ({ [`${r}_id`]: id(r) })],
];

/** The 200 tools: `{ server, name, description, inputSchema, readOnly }`, server by server. */
export function mcpCatalog() {
  const tools = [];
  for (const [server, label, resources] of SERVICES) {
    for (const [resource, plural, alias, fields] of resources) {
      const spoken = resource.replace(/_/g, ' ');
      for (const [verb, describe, schema] of VERBS) {
        const name = `${verb}_${verb === 'list' ? plural.replace(/ /g, '_') : resource}`;
        const properties = schema(fields, resource);
        tools.push({
          server,
          name,
          description: describe(spoken, label, alias, plural),
          inputSchema: { type: 'object', properties, required: Object.keys(properties).filter((key) => key !== 'limit' && key !== 'cursor').slice(0, 2) },
          readOnly: verb === 'list' || verb === 'get',
        });
      }
    }
  }
  return tools;
}

/**
 * What a model would search for, in its own words, with the tool it needs. About a third use
 * other words than the tool's name (ticket for issue, money back for refund, ...).
 */
export const SEARCH_TASKS = [
  ['create a github issue for a bug', 'mcp__github__create_issue'],
  ['open a pull request on github', 'mcp__github__create_pull_request'],
  ['list open pull requests github repository', 'mcp__github__list_pull_requests'],
  ['delete a git branch', 'mcp__github__delete_branch'],
  ['publish a github release for a version tag', 'mcp__github__create_release'],
  ['post a message to a slack channel', 'mcp__slack__create_message'],
  ['send a chat notification in slack', 'mcp__slack__create_message'],
  ['create a private slack channel', 'mcp__slack__create_channel'],
  ['remind me in slack to follow up', 'mcp__slack__create_reminder'],
  ['list slack user groups', 'mcp__slack__list_user_groups'],
  ['create a jira ticket', 'mcp__jira__create_issue'],
  ['add a comment to a jira issue', 'mcp__jira__create_comment'],
  ['log time spent on a jira ticket', 'mcp__jira__create_worklog'],
  ['list sprints of a jira board', 'mcp__jira__list_sprints'],
  ['upload a file to google drive', 'mcp__gdrive__create_file'],
  ['share a drive document with someone', 'mcp__gdrive__create_permission'],
  ['version history of a drive file', 'mcp__gdrive__list_revisions'],
  ['schedule a meeting on the calendar', 'mcp__calendar__create_event'],
  ['find a free time slot for several people', 'mcp__calendar__get_availability'],
  ['invite a guest to a calendar event', 'mcp__calendar__create_attendee'],
  ['cancel a calendar meeting', 'mcp__calendar__delete_event'],
  ['run a read-only sql select query', 'mcp__postgres__create_query'],
  ['describe a postgres table schema', 'mcp__postgres__get_table'],
  ['add a database index to speed up a table', 'mcp__postgres__create_index'],
  ['apply a schema migration', 'mcp__postgres__create_migration'],
  ['search sentry errors stack trace', 'mcp__sentry__list_error_events'],
  ['assign a sentry issue to a team for triage', 'mcp__sentry__create_issue_assignment'],
  ['create a sentry alert rule', 'mcp__sentry__create_alert_rule'],
  ['create a stripe customer', 'mcp__stripe__create_customer'],
  ['refund a stripe payment', 'mcp__stripe__create_refund'],
  ['give a customer their money back', 'mcp__stripe__create_refund'],
  ['send an invoice bill to a customer', 'mcp__stripe__create_invoice'],
  ['list recent charges', 'mcp__stripe__list_payments'],
  ['write a new notion wiki page', 'mcp__notion__create_page'],
  ['append a paragraph to a notion page', 'mcp__notion__create_block'],
  ['create a notion database tracker', 'mcp__notion__create_database'],
  ['create a linear issue for the team', 'mcp__linear__create_issue'],
  ['plan a linear cycle sprint', 'mcp__linear__create_cycle'],
  ['update a linear project lead', 'mcp__linear__update_project'],
  ['delete a linear label tag', 'mcp__linear__delete_label'],
];

/** Regex patterns a model writes for the regex variant, with the tool it needs. */
export const REGEX_TASKS = [
  ['(?i)github.*create_issue', 'mcp__github__create_issue'],
  ['(?i)slack.*message', 'mcp__slack__create_message'],
  ['(?i)refund', 'mcp__stripe__create_refund'],
  ['(?i)calendar__create_event', 'mcp__calendar__create_event'],
  ['(?i)jira.*worklog', 'mcp__jira__create_worklog'],
  ['(?i)sentry.*list_error', 'mcp__sentry__list_error_events'],
  ['(?i)notion__create_page', 'mcp__notion__create_page'],
  ['(?i)postgres.*query', 'mcp__postgres__create_query'],
];
