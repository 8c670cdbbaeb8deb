/**
 * The approval page's markdown renderer (plans, todos, assistant text: all model-written) against
 * hostile text: every tag, attribute and link the model writes must come out as text.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript served to the browser, without types
import { renderMarkdown } from '../../examples/approval-web/markdown.js';

const render = renderMarkdown as (source: string) => string;

/** The tags of the output: only those the renderer itself writes. */
const tags = (html: string) => [...html.matchAll(/<\/?([a-z0-9]+)/gi)].map((match) => match[1]!.toLowerCase());
const OWN_TAGS = new Set(['p', 'br', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'pre', 'code', 'strong', 'em']);

describe('examples/approval-web markdown.js', () => {
  const hostile = [
    '<img src=x onerror=alert(1)>',
    '# <script>alert(1)</script>',
    '- [ ] <svg onload=alert(1)>',
    '[click](javascript:alert(1))',
    '<a href="javascript:alert(1)">x</a>',
    '`<img src=x onerror=alert(1)>` and **<b onmouseover=alert(1)>bold</b>** and *"quoted" \'attr\'*',
    '```\n</code></pre><img src=x onerror=alert(1)>\n```',
    '```\nunclosed <iframe src=javascript:alert(1)>',
    '1. "><img src=x onerror=alert(1)>',
  ];

  it.each(hostile)('renders %j with no tag, attribute or link of its own', (source) => {
    const html = render(source);
    for (const tag of tags(html)) expect(OWN_TAGS.has(tag), `${tag} in ${html}`).toBe(true);
    expect(html, 'a tag with attributes').not.toMatch(/<\/?[a-z0-9]+[^a-z0-9>]/i);
  });

  it('keeps the text readable: escaped, not dropped', () => {
    expect(render('<img src=x onerror=alert(1)>')).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>');
    expect(render('**a < b** and `x & y`')).toBe('<p><strong>a &lt; b</strong> and <code>x &amp; y</code></p>');
  });
});
