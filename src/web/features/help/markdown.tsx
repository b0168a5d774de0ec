import type { Child } from 'hono/jsx';
import type { Nodes, Root, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';

/**
 * A help article's Markdown as page content. The text is parsed into a tree (mdast) and each node is
 * rendered as JSX, so every piece of text is escaped and raw HTML in the source shows as text: the
 * page never trusts the content as markup. Headings start at h2 (the page's h1 is the title). Links to the API's article addresses (/v1/help/articles/<id>) lead to the article's page.
 */
export function ArticleBody({ markdown }: { markdown: string }) {
  const tree: Root = fromMarkdown(markdown, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] });
  return <div class="article-body">{tree.children.map(node)}</div>;
}

/** Where a link in an article leads on the pages: API article paths become the article's page; other hosts stay out. */
export function pageHref(url: string): string | null {
  const article = /^\/v1\/help\/articles\/([A-Za-z0-9_-]+)$/.exec(url);
  if (article) return `/help/articles/${article[1]}`;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  if (url.startsWith('#')) return url;
  return null;
}

function children(n: { children: Nodes[] }): Child[] {
  return n.children.map(node);
}

function table(t: Table): Child {
  const [head, ...rows] = t.children;
  return (
    // Wider than a phone: the wrapper scrolls, so it takes the keyboard focus to scroll by keys.
    <section class="table-wrap" tabindex={0} aria-label="Table">
      <table>
        {head ? (
          <thead>
            <tr>
              {head.children.map((cell) => (
                <th scope="col">{children(cell)}</th>
              ))}
            </tr>
          </thead>
        ) : null}
        <tbody>
          {rows.map((r) => (
            <tr>
              {r.children.map((cell) => (
                <td>{children(cell)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function node(n: Nodes): Child {
  switch (n.type) {
    case 'paragraph':
      return <p>{children(n)}</p>;
    case 'heading': {
      const level = Math.max(2, n.depth);
      const content = children(n);
      if (level === 2) return <h2>{content}</h2>;
      if (level === 3) return <h3>{content}</h3>;
      if (level === 4) return <h4>{content}</h4>;
      if (level === 5) return <h5>{content}</h5>;
      return <h6>{content}</h6>;
    }
    case 'text':
      return n.value;
    case 'emphasis':
      return <em>{children(n)}</em>;
    case 'strong':
      return <strong>{children(n)}</strong>;
    case 'delete':
      return <del>{children(n)}</del>;
    case 'inlineCode':
      return <code>{n.value}</code>;
    case 'code':
      // A long line scrolls inside the block on a phone: the block is a named region that takes the
      // keyboard focus, so it scrolls by keys as well (as tables do).
      return (
        <section class="code-block" tabindex={0} aria-label="Example">
          <pre>
            <code>{n.value}</code>
          </pre>
        </section>
      );
    case 'break':
      return <br />;
    case 'thematicBreak':
      return <hr />;
    case 'blockquote':
      return <blockquote>{children(n)}</blockquote>;
    case 'list':
      return n.ordered ? <ol start={n.start ?? undefined}>{n.children.map(node)}</ol> : <ul>{n.children.map(node)}</ul>;
    case 'listItem':
      // A tight list item's paragraph is its text alone.
      return <li>{n.spread ? children(n) : n.children.map((c) => (c.type === 'paragraph' ? children(c) : node(c)))}</li>;
    case 'link': {
      const href = pageHref(n.url);
      return href ? <a href={href}>{children(n)}</a> : <span>{children(n)}</span>;
    }
    case 'table':
      return table(n);
    case 'html':
      return n.value;
    case 'image':
    case 'imageReference':
      return n.alt ?? '';
    default:
      return 'children' in n ? children(n as { children: Nodes[] }) : 'value' in n ? String(n.value) : null;
  }
}
