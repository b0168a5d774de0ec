import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { renderPage } from '@/web/render';
import { requestOrigin } from '@/http/origin';
import { PublicShell, signedInViewer } from './shell';

/**
 * The front door (/): what the service is, for businesses and for shifters, and the ways in (sign in,
 * create an account; the dashboard for a signed-in person) and for programs (the API docs, the agent
 * server, the widgets). A signed-in person sees it too, led on by "Go to your dashboard", so the page
 * stays the one place that explains the service and links its docs.
 */
export async function renderLanding(c: Context<AppEnv>): Promise<Response> {
  const signedIn = (await signedInViewer(c)) !== null;
  const mcp = `${requestOrigin(c)}/v1/mcp/`;
  return renderPage(
    c,
    <PublicShell title="Shift work, filled and worked" signedIn={signedIn} wide heading={false}>
      <section class="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">Shift work, filled and worked</h1>
        <p class="hero-lead">
          Shiftmarket brings venues that need people for a shift together with shifters who want the work: post or find a shift, agree on
          it, clock in and out, pay and get paid, and rate each other afterwards.
        </p>
        <p class="actions">
          {signedIn ? (
            <a class="button button-primary" href="/dashboard">
              Go to your dashboard
            </a>
          ) : (
            <>
              <a class="button button-primary" href="/signup">
                Create an account
              </a>
              <a class="button button-secondary" href="/login">
                Sign in
              </a>
            </>
          )}
        </p>
        <p>
          Questions before you start? <a href="/help">Read the help center</a>: how posting, claiming, clocking in and paying work.
        </p>
      </section>

      <div class="grid landing-sides">
        <section class="card" aria-labelledby="for-businesses">
          <h2 id="for-businesses">For businesses</h2>
          <ul>
            <li>Post a shift to one person or broadcast it to your crew, one at a time, in bulk or from weekly templates.</li>
            <li>See the week on a calendar with its labor cost against your budget.</li>
            <li>A clock board and a kiosk for the venue’s tablet: who is in, who is late.</li>
            <li>Invoices and card payments for the shifts worked.</li>
          </ul>
          <p>
            <a href="/signup?as=business">Create a business account</a>
          </p>
        </section>
        <section class="card" aria-labelledby="for-shifters">
          <h2 id="for-shifters">For shifters</h2>
          <ul>
            <li>Find open shifts near you at the going rate, and answer the requests sent to you.</li>
            <li>Your schedule in one place; clock in and out, even with a poor connection.</li>
            <li>Your earnings, mileage and credentials kept for you.</li>
            <li>Pause requests whenever you need a break.</li>
          </ul>
          <p>
            <a href="/signup?as=shifter">Create a shifter account</a>
          </p>
        </section>
      </div>

      <section aria-labelledby="for-programs" class="landing-programs">
        <h2 id="for-programs">For programs and agents</h2>
        <dl class="pairs">
          <dt>
            <a href="/v1/docs">API documentation</a>
          </dt>
          <dd>
            Every operation of the REST API, to try out (also as <a href="/v1/redoc">a read-only reference</a> and{' '}
            <a href="/v1/openapi.json">the OpenAPI document</a>).
          </dd>
          <dt>
            <a href="/account/agents">Agent server (MCP)</a>
          </dt>
          <dd>
            Connect an AI agent at <code class="mono">{mcp}</code>: it asks you to sign in and choose what it may do. You manage your
            connected agents in your account.
          </dd>
          <dt>
            <a href="/embed/examples">Widgets</a>
          </dt>
          <dd>Your profile, open shifts, reviews and the going rate on your own website, with one script tag.</dd>
        </dl>
      </section>
    </PublicShell>,
  );
}
