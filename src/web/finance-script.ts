/**
 * The payment authentication pages' script (served by assets.ts at a content-hashed path, like the
 * layout's script; no inline script is allowed).
 *
 * On the authenticate page (`#payment-auth`) the "Confirm with your bank" button runs the issuer's
 * check with the call the page names in `data-next-step`: `handleNextAction({ clientSecret })` for an
 * intent in requires_action, or `confirmCardPayment(clientSecret, { payment_method })` with the saved
 * card for Stripe's shape of a declined off-session charge (requires_payment_method after
 * authentication_required, where handleNextAction does not apply). With real Stripe keys that is
 * Stripe.js (loaded from js.stripe.com on that page only), without them it is `SimulatedStripe`
 * below, which offers the same two calls and takes the browser to the simulated issuer page. Either
 * way the browser ends on the result page, which reads the invoice.
 *
 * On the result page (`#payment-result`) a "processing" state polls the small JSON status a few
 * times, since the processor's event may land just after the redirect, and announces the outcome.
 */
export const FINANCE_SCRIPT = `(function () {
  'use strict';
  var POLL_MS = 1500;
  var POLL_TRIES = 40;

  function say(el, text) {
    if (el) el.textContent = text;
  }

  /** The simulator's stand-in for Stripe.js: the issuer's check is a page of our own. */
  function SimulatedStripe(root) {
    function toIssuer(secret) {
      var url = root.getAttribute('data-simulator-url');
      if (!url || !secret) {
        return Promise.resolve({ error: { message: 'The payment could not be prepared. Reload the page.' } });
      }
      window.location.assign(url);
      // The page is left for the issuer's check, as Stripe.js leaves it for a redirect.
      return new Promise(function () {});
    }
    return {
      handleNextAction: function (options) {
        return toIssuer(options && options.clientSecret);
      },
      confirmCardPayment: function (clientSecret, data) {
        if (!data || !data.payment_method) return toIssuer('');
        return toIssuer(clientSecret);
      }
    };
  }

  /** The issuer's step as the page names it (see data-next-step). */
  function runNextStep(stripe, root, secret) {
    if (root.getAttribute('data-next-step') === 'confirm_card_payment') {
      var pm = root.getAttribute('data-payment-method') || '';
      if (!pm) return Promise.resolve({ error: { message: 'The payment could not be prepared. Reload the page.' } });
      return stripe.confirmCardPayment(secret, { payment_method: pm });
    }
    return stripe.handleNextAction({ clientSecret: secret });
  }

  function initAuthenticate(root) {
    var button = document.getElementById('payment-auth-start');
    var status = document.getElementById('payment-auth-status');
    if (!button) return;
    button.hidden = false;
    var fallback = document.getElementById('payment-auth-noscript');
    if (fallback) fallback.hidden = true;
    button.addEventListener('click', function () {
      var mode = root.getAttribute('data-mode');
      var secret = root.getAttribute('data-client-secret') || '';
      var resultUrl = root.getAttribute('data-result-url') || '/';
      var stripe;
      if (mode === 'stripe') {
        if (typeof window.Stripe !== 'function') {
          say(status, 'The payment form could not load. Check your connection and reload the page.');
          return;
        }
        stripe = window.Stripe(root.getAttribute('data-publishable-key') || '');
      } else {
        stripe = SimulatedStripe(root);
      }
      button.disabled = true;
      say(status, 'Opening your bank\\u2019s check\\u2026');
      runNextStep(stripe, root, secret).then(function (result) {
        // Success or not, the result page reads the invoice and says what happened.
        if (result && result.error) say(status, result.error.message || 'Your bank did not confirm the payment.');
        window.location.assign(resultUrl);
      }, function () {
        button.disabled = false;
        say(status, 'Something went wrong. Try again.');
      });
    });
  }

  function initResult(root) {
    if (root.getAttribute('data-state') !== 'processing') return;
    var url = root.getAttribute('data-status-url');
    var message = document.getElementById('payment-result-message');
    var tries = 0;
    function poll() {
      tries++;
      fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
        .then(function (res) { return res.ok ? res.json() : null; })
        .then(function (body) {
          if (body && body.state && body.state !== 'processing') {
            root.setAttribute('data-state', body.state);
            say(message, body.message);
            return;
          }
          if (tries < POLL_TRIES) window.setTimeout(poll, POLL_MS);
        }, function () {
          if (tries < POLL_TRIES) window.setTimeout(poll, POLL_MS);
        });
    }
    window.setTimeout(poll, POLL_MS);
  }

  function init() {
    var auth = document.getElementById('payment-auth');
    if (auth) initAuthenticate(auth);
    var result = document.getElementById('payment-result');
    if (result) initResult(result);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
`;
