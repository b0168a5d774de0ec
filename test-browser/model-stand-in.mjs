// A local stand-in of an OpenAI-compatible chat-completions endpoint, for the browser tests: no
// language model is reachable from a test machine, and a real one would not answer the same way twice.
// run.mjs starts it and points the Worker at it (OPENAI_BASE_URL=http://127.0.0.1:<port>/v1 with a
// throwaway OPENAI_API_KEY), so the business assistant's one-click actions can be clicked in Chromium.
//
// It answers POST /v1/chat/completions as src/services/ai/openai.ts sends and reads it (one JSON
// answer, no streaming), from a script rather than a model:
// - a conversation offered the business assistant's `propose_action` tool, whose last message is the
//   user's: "post a shift on YYYY-MM-DD from HH:MM to HH:MM" → a `propose_action` call
//   (open_shift_form with that date and those times); "invite shf_…" → invite_shifter; "open /path" →
//   open_url; anything else → a plain text answer with no tool call;
// - the same conversation after its tool call (the last message is the tool's result) → a plain text
//   answer saying what was proposed, or the tool's refusal;
// - any other conversation (the help assistant's, which offers no tools) → 503, so the service's
//   documented fallback answers it exactly as it does without a model (the help test expects that reply).
import { createServer } from 'node:http';

/** The key run.mjs gives the Worker; the stand-in refuses other keys, as a provider would. */
export const STAND_IN_KEY = 'sk-local-stand-in';

const DATE_RE = /\b(\d{4}-\d{2}-\d{2})\b/;
const TIMES_RE = /\b(\d{2}:\d{2})\b.*?\b(\d{2}:\d{2})\b/;

const completion = (message) => ({
  id: `chatcmpl-stand-in-${Date.now()}`,
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model: 'stand-in',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
  usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
});

const proposal = (args) =>
  completion({
    content: null,
    tool_calls: [{ id: `call_${Date.now()}`, type: 'function', function: { name: 'propose_action', arguments: JSON.stringify(args) } }],
  });

/** The scripted answer to one request body, or null for a conversation the script does not know. */
export function answer(body) {
  const offersProposals = (body.tools ?? []).some((t) => t?.function?.name === 'propose_action');
  if (!offersProposals) return null;
  const last = body.messages?.at(-1);
  if (last?.role === 'tool') {
    const result = JSON.parse(last.content);
    return completion({ content: result.error ? `I could not propose that: ${result.error.message}` : 'Here you are: one click below.' });
  }
  const text = typeof last?.content === 'string' ? last.content : '';
  const date = text.match(DATE_RE)?.[1];
  const times = text.match(TIMES_RE);
  if (/\bpost a shift\b/i.test(text) && date && times) {
    return proposal({ type: 'open_shift_form', date, in: times[1], out: times[2] });
  }
  const shifter = text.match(/\binvite\b.*?\b(shf_[\w-]+)/i)?.[1];
  if (shifter) return proposal({ type: 'invite_shifter', shifter_id: shifter });
  const path = text.match(/\bopen (\/[\w/?=&.-]*)/i)?.[1];
  if (path) return proposal({ type: 'open_url', url: path });
  return completion({ content: 'I have nothing to propose for that; ask me to post a shift on a date, with its times.' });
}

/** Listens on 127.0.0.1:`port`; resolves with the server once listening (close it with server.close()). */
export function startModelStandIn(port) {
  const server = createServer((req, res) => {
    const send = (status, json) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      send(404, { error: { type: 'not_found', message: 'Only POST /v1/chat/completions is here.' } });
      return;
    }
    if (req.headers.authorization !== `Bearer ${STAND_IN_KEY}`) {
      send(401, { error: { type: 'invalid_api_key', message: 'Not the stand-in key.' } });
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let reply;
      try {
        reply = answer(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        send(400, { error: { type: 'invalid_request_error', message: 'The body is not the JSON expected.' } });
        return;
      }
      if (reply) send(200, reply);
      else send(503, { error: { type: 'unscripted', message: 'The stand-in answers only the conversations it is scripted for.' } });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
