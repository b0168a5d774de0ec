import { ASSISTANT_NAME, inWebWords } from './help-wording.model';
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import {
  type ArticleList,
  askHelp,
  escalateHelp,
  FEEDBACK_COMMENT_MAX,
  getArticle,
  getHelpConversation,
  getVideo,
  HELP_CATEGORIES,
  type HelpCategory,
  type HelpConversation,
  listArticles,
  listHelpConversations,
  listVideos,
  QUESTION_MAX,
  SEARCH_QUERY_MAX,
  type SearchResult,
  searchHelp,
  sendArticleFeedback,
  type VideoList,
} from '@/services/help';
import { appendMessage, listMessages, MESSAGE_BODY_MAX, type MessageView } from '@/services/messaging';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton } from '@/web/components';
import { formFields } from '@/web/forms';
import { renderError, renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { PublicShell, signedInViewer } from '../public/shell';
import { dayOf, type FormState, FormMessage, stateFor, Textarea } from '../reviews/shared';
import { ArticleBody, pageHref } from './markdown';

/**
 * The help center (/help): search, the articles by category, the videos, the help assistant and the
 * way to a person. Every page calls the help services as the API does, with the person as the actor.
 * Search, categories, articles and videos are open to visitors, as the API's reads are (someone
 * deciding whether to sign up needs them most): a visitor reads them in the visitor's header, a
 * signed-in person inside the app shell. Asking the help assistant, article feedback (one vote per
 * person) and the way to a person need an account: a visitor is offered sign-in leading back here.
 */

const NOTICES: Record<string, string> = {
  feedback: 'Thank you: your feedback was saved.',
  escalated: 'A person from the support team will answer in this conversation. It is in your inbox too.',
  sent: 'Your message was sent to the support team.',
};

/** The signed-in reader's shell data, or null for a visitor (the actor is then anonymous). */
async function viewerBase(c: Context<AppEnv>): Promise<DashboardBase | null> {
  return (await signedInViewer(c)) ? dashboardBase(c) : null;
}

/** The page inside the app shell for a signed-in person, in the visitor's header otherwise. */
function Frame(p: { base: DashboardBase | null; title: string; notice?: string | undefined; children: Child }) {
  return p.base ? (
    <AppShell base={p.base} title={p.title} side="shared" current="/help" notice={p.notice}>
      {p.children}
    </AppShell>
  ) : (
    <PublicShell title={p.title} current="/help" notice={p.notice}>
      {p.children}
    </PublicShell>
  );
}

/** Sign-in that comes back to `path`. */
const signInHref = (path: string) => `/login?next=${encodeURIComponent(path)}`;

const isCategory = (c: string | undefined): c is HelpCategory => (HELP_CATEGORIES as readonly string[]).includes(c ?? '');

/** "3:12": a video's length. */
const duration = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/** A search snippet, its found words (between « and ») marked. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/«|»/);
  return <p class="muted">{parts.map((p, i) => (i % 2 ? <mark>{p}</mark> : p))}</p>;
}

/** A message's text with the articles it names (the API's /v1/help/articles/<id> paths) as links to their pages. */
export function Linked({ text }: { text: string }): Child {
  const out: Child[] = [];
  const re = /\/v1\/help\/articles\/[A-Za-z0-9_-]+/g;
  let at = 0;
  for (const m of text.matchAll(re)) {
    out.push(text.slice(at, m.index));
    out.push(<a href={pageHref(m[0]) ?? m[0]}>{m[0].replace('/v1/help/articles/', 'help article: ')}</a>);
    at = (m.index ?? 0) + m[0].length;
  }
  out.push(text.slice(at));
  return <>{out}</>;
}

function SearchForm({ q }: { q: string }) {
  return (
    <search>
      <form method="get" action="/help" class="help-search">
        <InputField label="Search the help center" name="q" type="search" value={q} maxLength={SEARCH_QUERY_MAX} />
        <SubmitButton>Search</SubmitButton>
      </form>
    </search>
  );
}

function AskForm({ base, state, conversationId }: { base: DashboardBase; state: FormState | null; conversationId?: string }) {
  return (
    <form method="post" action="/help/ask" class="stack" novalidate>
      <CsrfField token={base.csrfToken} />
      <IdempotencyField value={state?.idem} />
      {conversationId ? <input type="hidden" name="conversation_id" value={conversationId} /> : null}
      <Textarea
        id={conversationId ? 'ask-more' : 'ask-question'}
        label={conversationId ? 'Ask a follow-up question' : 'Your question'}
        name="question"
        required
        value={state?.values.question}
        maxLength={QUESTION_MAX}
        error={state?.errors.question}
        hint={conversationId ? undefined : 'The help assistant answers from the help articles. You can ask for a person afterwards.'}
        autofocus={state ? true : undefined}
      />
      <FormMessage state={state} />
      <SubmitButton>{conversationId ? 'Ask' : 'Ask the help assistant'}</SubmitButton>
    </form>
  );
}

function Conversations({ list }: { list: HelpConversation[] }) {
  if (!list.length) return null;
  return (
    <Card title="Your help conversations">
      <ul class="list-plain">
        {list.map((h) => (
          <li>
            <a href={`/help/conversations/${encodeURIComponent(h.id)}`}>{h.subject ?? 'Help conversation'}</a>{' '}
            <span class={h.kind === 'support' ? 'badge badge-info' : 'badge'}>
              {h.kind === 'support' ? 'With the support team' : 'Help assistant'}
            </span>{' '}
            <span class="muted">{dayOf(h.last_message_at ?? h.created_at)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Results({ result }: { result: SearchResult }) {
  const none = !result.articles.length && !result.videos.length;
  return (
    <section class="card" aria-labelledby="results-title">
      <h2 id="results-title">{`Results for “${result.query}”`}</h2>
      {none ? (
        <p class="empty">Nothing matches these words. Try other words, browse the categories below, or ask the help assistant.</p>
      ) : null}
      {result.articles.length ? (
        <ul class="list-plain help-results">
          {result.articles.map((a) => (
            <li>
              <a href={`/help/articles/${encodeURIComponent(a.id)}`}>{a.title}</a> <span class="muted">{`· ${a.category_label}`}</span>
              <Snippet text={a.snippet || a.summary} />
            </li>
          ))}
        </ul>
      ) : null}
      {result.videos.length ? (
        <>
          <h3>Videos</h3>
          <ul class="list-plain help-results">
            {result.videos.map((v) => (
              <li>
                <a href={`/help/videos/${encodeURIComponent(v.id)}`}>{v.title}</a>{' '}
                <span class="muted">{`· video, ${duration(v.duration_seconds)}`}</span>
                <Snippet text={v.snippet || v.description} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function Categories({ articles, category }: { articles: ArticleList; category: HelpCategory | null }) {
  const groups = articles.categories.map((cat) => ({ ...cat, items: articles.data.filter((a) => a.category === cat.id) }));
  return (
    <section class="card" aria-labelledby="articles-title">
      <h2 id="articles-title">Articles</h2>
      <nav class="subnav subnav-small" aria-label="Help categories">
        <ul>
          <li>
            <a href="/help" aria-current={category ? undefined : 'page'}>
              All
            </a>
          </li>
          {HELP_CATEGORIES.map((c) => (
            <li>
              <a href={`/help?category=${c}`} aria-current={c === category ? 'page' : undefined}>
                {articles.categories.find((x) => x.id === c)?.label ?? c}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map((g) => (
        <>
          <h3>{g.label}</h3>
          <ul class="list-plain help-articles">
            {g.items.map((a) => (
              <li>
                <a href={`/help/articles/${encodeURIComponent(a.id)}`}>{a.title}</a>
                <p class="muted">{a.summary}</p>
              </li>
            ))}
          </ul>
        </>
      ))}
    </section>
  );
}

function Videos({ videos }: { videos: VideoList }) {
  if (!videos.data.length) return null;
  return (
    <Card title="Videos">
      <ul class="list-plain help-articles">
        {videos.data.map((v) => (
          <li>
            <a href={`/help/videos/${encodeURIComponent(v.id)}`}>{v.title}</a>{' '}
            <span class="muted">{`· ${duration(v.duration_seconds)}`}</span>
            <p class="muted">{v.description}</p>
          </li>
        ))}
      </ul>
    </Card>
  );
}

async function renderHomeWith(
  c: Context<AppEnv>,
  base: DashboardBase | null,
  state: FormState | null,
  status: 200 | 400 | 404 | 409 | 422 | 429 = 200,
) {
  const ctx = serviceCtx(c);
  const q = (c.req.query('q') ?? '').trim().slice(0, SEARCH_QUERY_MAX);
  const asked = c.req.query('category');
  const category = isCategory(asked) ? asked : null;
  const [result, articles, videos, conversations] = await Promise.all([
    q ? searchHelp(ctx, { query: q, limit: 10 }) : Promise.resolve(null),
    listArticles(ctx, category ? { category } : {}),
    listVideos(ctx, category ? { category } : {}),
    base ? listHelpConversations(ctx) : Promise.resolve([]),
  ]);
  return renderPage(
    c,
    <Frame base={base} title="Help" notice={NOTICES[c.req.query('notice') ?? '']}>
      <SearchForm q={q} />
      {result ? <Results result={result} /> : null}
      <section class="card" aria-labelledby="ask-title">
        <h2 id="ask-title">Ask the help assistant</h2>
        {base ? (
          <AskForm base={base} state={stateFor(state, 'ask')} />
        ) : (
          <p>
            The help assistant answers from these articles, and a person from the support team takes over when it cannot.{' '}
            <a href={signInHref('/help')}>Sign in to ask</a> or <a href="/signup">create an account</a>.
          </p>
        )}
      </section>
      <Conversations list={conversations} />
      <Categories articles={articles} category={category} />
      <Videos videos={videos} />
    </Frame>,
    status,
  );
}

export async function renderHelp(c: Context<AppEnv>): Promise<Response> {
  return renderHomeWith(c, await viewerBase(c), null);
}

async function notFound(c: Context<AppEnv>, err: unknown): Promise<Response> {
  if (err instanceof AppError && (err.code === 'HELP-NOT-FND-ERR' || err.code === 'MSG-NOT-FND-ERR')) {
    return renderError(c, 404, 'Page not found', 'There is no such help page.');
  }
  throw err;
}

export function renderArticle(c: Context<AppEnv>): Promise<Response> {
  return articlePage(c, null);
}

async function articlePage(c: Context<AppEnv>, state: FormState | null, status: 200 | 400 | 404 = 200): Promise<Response> {
  // Feedback is posted only by a signed-in person (the POST route requires one).
  const base = state ? await dashboardBase(c) : await viewerBase(c);
  const id = c.req.param('id') ?? '';
  let article: Awaited<ReturnType<typeof getArticle>>;
  try {
    article = await getArticle(serviceCtx(c), id);
  } catch (err) {
    return notFound(c, err);
  }
  const fb = stateFor(state, 'feedback');
  return renderPage(
    c,
    <Frame base={base} title={article.title} notice={NOTICES[c.req.query('notice') ?? '']}>
      <p class="muted">
        <a href="/help">Help</a> › <a href={`/help?category=${encodeURIComponent(article.category)}`}>{article.category_label}</a>
      </p>
      <p class="aside">{article.summary}</p>
      <ArticleBody markdown={article.body} />
      <section class="card" aria-labelledby="feedback-title">
        <h2 id="feedback-title">Did this article help?</h2>
        {base ? null : (
          <p>
            <a href={signInHref(`/help/articles/${article.id}`)}>Sign in to say whether it helped</a>
            {` · ${article.helpful_count} found it helpful, ${article.not_helpful_count} did not.`}
          </p>
        )}
        {base ? (
          <form method="post" action={`/help/articles/${encodeURIComponent(article.id)}/feedback`} class="stack" novalidate>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField value={fb?.idem} />
            <Textarea
              id="feedback-comment"
              label="What was missing or wrong? (optional)"
              name="comment"
              value={fb?.values.comment}
              maxLength={FEEDBACK_COMMENT_MAX}
              error={fb?.errors.comment}
            />
            <FormMessage state={fb} />
            <div class="feedback-choices">
              <SubmitButton name="helpful" value="yes">
                Yes, it helped
              </SubmitButton>
              <SubmitButton name="helpful" value="no" variant="secondary">
                No, it did not
              </SubmitButton>
            </div>
            <p class="hint">{`${article.helpful_count} found it helpful, ${article.not_helpful_count} did not. A second vote replaces your first.`}</p>
          </form>
        ) : null}
      </section>
      <p>
        Still stuck?{' '}
        <a href={base ? '/help#ask-title' : signInHref('/help')}>{base ? 'Ask the help assistant' : 'Sign in to ask the help assistant'}</a>
        .
      </p>
    </Frame>,
    status,
  );
}

export async function postFeedback(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id') ?? '';
  const f = await formFields(c);
  const values = { comment: f('comment', FEEDBACK_COMMENT_MAX + 100), helpful: f('helpful', 5) };
  const refuse = (message: string) => articlePage(c, { key: 'feedback', errors: {}, message, values, idem: f('_idem', 255) }, 400);
  if (values.helpful !== 'yes' && values.helpful !== 'no') return refuse('Choose “Yes, it helped” or “No, it did not”.');
  if (values.comment.length > FEEDBACK_COMMENT_MAX) return refuse(`The comment may be at most ${FEEDBACK_COMMENT_MAX} characters.`);
  try {
    await sendArticleFeedback(serviceCtx(c), id, { helpful: values.helpful === 'yes', comment: values.comment.trim() || null });
  } catch (err) {
    if (err instanceof AppError && err.code === 'VALIDATION-ERR') return refuse(err.message);
    return notFound(c, err);
  }
  return c.redirect(`/help/articles/${encodeURIComponent(id)}?notice=feedback`, 303);
}

export async function renderVideo(c: Context<AppEnv>): Promise<Response> {
  const base = await viewerBase(c);
  let video: Awaited<ReturnType<typeof getVideo>>;
  try {
    video = await getVideo(serviceCtx(c), c.req.param('id') ?? '');
  } catch (err) {
    return notFound(c, err);
  }
  // The video's own address is this page (our assets); one elsewhere is named, never embedded or loaded.
  const here = `/help/videos/${video.id}`;
  const elsewhere = video.url !== here && !video.url.startsWith('/');
  return renderPage(
    c,
    <Frame base={base} title={video.title}>
      <p class="muted">
        <a href="/help">Help</a> › {`${video.category_label} · video, ${duration(video.duration_seconds)}`}
      </p>
      <p>{video.description}</p>
      {elsewhere ? (
        <p>
          This video lives on another site: <code>{video.url}</code>
        </p>
      ) : null}
      <Card title="Transcript">
        <p class="review-text">{video.transcript}</p>
      </Card>
    </Frame>,
  );
}

/** The ask form's question as sent; a new conversation or a follow-up in the caller's own. */
export async function postAsk(c: Context<AppEnv>): Promise<Response> {
  const f = await formFields(c);
  const question = f('question', QUESTION_MAX + 100).trim();
  const conversationId = f('conversation_id', 100) || undefined;
  const idem = f('_idem', 255);
  const refuse = async (message: string, status: 400 | 404 | 409 | 429) => {
    const state: FormState = { key: 'ask', errors: { question: message }, values: { question }, idem };
    if (conversationId) return renderConversationWith(c, conversationId, state, status);
    return renderHomeWith(c, await dashboardBase(c), state, status);
  };
  if (!question) return refuse('Write your question first.', 400);
  if (question.length > QUESTION_MAX) return refuse(`At most ${QUESTION_MAX} characters.`, 400);
  let answer: Awaited<ReturnType<typeof askHelp>>;
  try {
    answer = await askHelp(serviceCtx(c), { question, ...(conversationId ? { conversation_id: conversationId } : {}) });
  } catch (err) {
    if (err instanceof AppError && (err.code === 'RATE-LIMIT-ERR' || err.code === 'CONFLICT-ERR' || err.code === 'VALIDATION-ERR')) {
      const retry = err.headers?.['Retry-After'];
      if (retry) c.header('Retry-After', retry);
      return refuse(err.message, err.status as 400 | 409 | 429);
    }
    return notFound(c, err);
  }
  return c.redirect(`/help/conversations/${encodeURIComponent(answer.conversation_id)}#latest`, 303);
}

function Message({ m, last }: { m: MessageView; last: boolean }) {
  const who = m.sender.kind === 'assistant' ? ASSISTANT_NAME : (m.sender.name ?? 'You');
  return (
    <li class={m.sender.kind === 'assistant' ? 'chat-message chat-assistant' : 'chat-message chat-user'} id={last ? 'latest' : undefined}>
      <p class="chat-who">
        {who} <span class="muted">{dayOf(m.created_at)}</span>
      </p>
      <p class="chat-text">
        <Linked text={m.sender.kind === 'assistant' ? inWebWords(m.body) : m.body} />
      </p>
    </li>
  );
}

async function renderConversationWith(
  c: Context<AppEnv>,
  id: string,
  state: FormState | null,
  status: 200 | 400 | 404 | 409 | 429 = 200,
): Promise<Response> {
  const base = await dashboardBase(c);
  const ctx = serviceCtx(c);
  let conv: HelpConversation;
  try {
    conv = await getHelpConversation(ctx, id);
  } catch (err) {
    return notFound(c, err);
  }
  const messages = await listMessages(ctx, id, null, { order: 'asc', limit: 100 });
  const withPeople = conv.kind === 'support';
  const inbox = `/inbox/${encodeURIComponent(id)}`;
  return renderPage(
    c,
    <AppShell
      base={base}
      title={conv.subject ?? 'Help conversation'}
      side="shared"
      current="/help"
      notice={NOTICES[c.req.query('notice') ?? '']}
    >
      <p class="muted">
        <a href="/help">Help</a> ›{' '}
        {withPeople ? <span class="badge badge-info">With the support team</span> : <span class="badge">With the help assistant</span>}{' '}
        <a href={inbox}>Open it in your inbox</a>
      </p>
      <ol class="chat help-chat" aria-label="Messages">
        {messages.data.map((m, i) => (
          <Message m={m} last={i === messages.data.length - 1} />
        ))}
      </ol>
      {withPeople ? (
        <section class="card" aria-labelledby="write-title">
          <h2 id="write-title">Write to the support team</h2>
          <form method="post" action={`/help/conversations/${encodeURIComponent(id)}/messages`} class="stack" novalidate>
            <CsrfField token={base.csrfToken} />
            <IdempotencyField value={stateFor(state, 'message')?.idem} />
            <Textarea
              id="support-message"
              label="Your message"
              name="body"
              required
              value={stateFor(state, 'message')?.values.body}
              maxLength={MESSAGE_BODY_MAX}
              error={stateFor(state, 'message')?.errors.body}
              hint="A person answers here and in your inbox."
            />
            <SubmitButton>Send</SubmitButton>
          </form>
        </section>
      ) : (
        <>
          <section class="card" aria-labelledby="more-title">
            <h2 id="more-title">Not answered?</h2>
            <AskForm base={base} state={stateFor(state, 'ask')} conversationId={id} />
          </section>
          <section class="card" aria-labelledby="person-title">
            <h2 id="person-title">Ask for a person</h2>
            <p>The conversation goes to the support team; a person answers here and in your inbox.</p>
            <form method="post" action={`/help/conversations/${encodeURIComponent(id)}/escalate`}>
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <SubmitButton variant="secondary">Ask for a person</SubmitButton>
            </form>
          </section>
        </>
      )}
    </AppShell>,
    status,
  );
}

export async function renderConversation(c: Context<AppEnv>): Promise<Response> {
  return renderConversationWith(c, c.req.param('id') ?? '', null);
}

export async function postEscalate(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id') ?? '';
  try {
    await escalateHelp(serviceCtx(c), { conversation_id: id });
  } catch (err) {
    return notFound(c, err);
  }
  return c.redirect(`/help/conversations/${encodeURIComponent(id)}?notice=escalated#latest`, 303);
}

export async function postSupportMessage(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id') ?? '';
  const f = await formFields(c);
  const body = f('body', MESSAGE_BODY_MAX + 100).trim();
  const refuse = (message: string, status: 400 | 409) =>
    renderConversationWith(c, id, { key: 'message', errors: { body: message }, values: { body }, idem: f('_idem', 255) }, status);
  if (!body) return refuse('Write your message first.', 400);
  const ctx = serviceCtx(c);
  try {
    const conv = await getHelpConversation(ctx, id);
    if (conv.kind !== 'support') return refuse('Ask for a person first: the help assistant answers questions with the form above.', 409);
    await appendMessage(ctx, id, { senderKind: 'user', senderId: base(c), body });
  } catch (err) {
    if (err instanceof AppError && err.code === 'VALIDATION-ERR') return refuse(err.message, 400);
    return notFound(c, err);
  }
  return c.redirect(`/help/conversations/${encodeURIComponent(id)}?notice=sent#latest`, 303);
}

/** The signed-in person's user id (requireWebUser set it). */
function base(c: Context<AppEnv>): string {
  const user = c.get('webUser');
  if (!user) throw new Error('help page reached without a signed-in user');
  return user.userId;
}
