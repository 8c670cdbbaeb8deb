// A small, safe markdown renderer for plans and assistant text: headings, lists, task boxes,
// code blocks, paragraphs, and inline code / bold / italics. Everything is escaped first.

const escape = (text) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

function inline(text) {
  return escape(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
}

/** Renders markdown to an HTML string. */
export function renderMarkdown(source) {
  const out = [];
  let list = null; // 'ul' | 'ol'
  let paragraph = [];
  let code = null;
  const closeParagraph = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map(inline).join('<br>')}</p>`);
    paragraph = [];
  };
  const closeList = () => {
    if (list) out.push(`</${list}>`);
    list = null;
  };
  for (const line of source.split('\n')) {
    if (code !== null) {
      if (line.startsWith('```')) {
        out.push(`<pre><code>${escape(code.join('\n'))}</code></pre>`);
        code = null;
      } else code.push(line);
      continue;
    }
    if (line.startsWith('```')) {
      closeParagraph();
      closeList();
      code = [];
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*([-*]|\d+[.)])\s+(.*)$/.exec(line);
    if (heading) {
      closeParagraph();
      closeList();
      const level = Math.min(heading[1].length + 1, 4);
      out.push(`<h${level}>${inline(heading[2])}</h${level}>`);
    } else if (item) {
      closeParagraph();
      const kind = /\d/.test(item[1]) ? 'ol' : 'ul';
      if (list !== kind) {
        closeList();
        out.push(`<${kind}>`);
        list = kind;
      }
      const task = /^\[( |x)\]\s+(.*)$/i.exec(item[2]);
      out.push(task ? `<li>${task[1] === ' ' ? '☐' : '☑'} ${inline(task[2])}</li>` : `<li>${inline(item[2])}</li>`);
    } else if (line.trim() === '') {
      closeParagraph();
      closeList();
    } else {
      closeList();
      paragraph.push(line);
    }
  }
  if (code !== null) out.push(`<pre><code>${escape(code.join('\n'))}</code></pre>`);
  closeParagraph();
  closeList();
  return out.join('\n');
}
