/**
 * The pages' one script, served by assets.ts at a content-hashed path (the CSP allows no inline
 * script). It only enhances: the Copy button of a CopyField (components.tsx) is rendered `hidden` and
 * shown here, so without script the read-only field is still there to select by hand; a Print button
 * (`data-print`, the schedule's) is shown here too and opens the browser's print dialog. A copy goes
 * through the Clipboard API, else selects the text and tries the legacy copy command, and says what
 * happened in the field's aria-live status line.
 */
export const CLIENT_SCRIPT = `(function () {
  'use strict';
  function announce(button, text) {
    var status = document.getElementById(button.getAttribute('data-copy-status') || '');
    if (!status) return;
    status.textContent = '';
    window.setTimeout(function () { status.textContent = text; }, 50);
  }
  function legacyCopy(input) {
    input.focus();
    input.select();
    input.setSelectionRange(0, input.value.length);
    try { return document.execCommand('copy'); } catch (e) { return false; }
  }
  function copy(button) {
    var input = document.getElementById(button.getAttribute('data-copy-target') || '');
    if (!input) return;
    var done = function () { announce(button, 'Copied'); };
    var fallback = function () {
      if (legacyCopy(input)) done();
      else announce(button, 'Selected: press Ctrl+C (or Cmd+C) to copy');
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, fallback);
    } else {
      fallback();
    }
  }
  function init() {
    var printers = document.querySelectorAll('button[data-print]');
    for (var p = 0; p < printers.length; p++) {
      printers[p].hidden = false;
      printers[p].addEventListener('click', function () { window.print(); });
    }
    var buttons = document.querySelectorAll('button[data-copy-target]');
    for (var i = 0; i < buttons.length; i++) {
      var button = buttons[i];
      button.hidden = false;
      button.addEventListener('click', function (event) { copy(event.currentTarget); });
      var input = document.getElementById(button.getAttribute('data-copy-target') || '');
      if (input) input.addEventListener('focus', function (event) { event.currentTarget.select(); });
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
`;
