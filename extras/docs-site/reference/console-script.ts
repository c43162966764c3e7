import { checkViews, shapedAnswers } from './explanations.js';
import { STATUS_REASONS } from './status-reasons.js';

/**
 * The console's script, plain ES2017 for any current browser. It sends each form's request with
 * `fetch` to the page's own origin (the base path is the page's own path without `/docs`, so it
 * follows a host framework's mount prefix), and shows the status line and the time the answer took,
 * the headers that matter here (`Deprecation` with its date, `Location` as a link to the console that
 * reads it), the body, and the same request in curl, `fetch` and `PetstoreClient`, each with a copy
 * button. A 401 points to the key field. The key is read from its field at each send and kept nowhere
 * else: no storage, no cookie, never in a URL; the snippets read it from `$API_KEY`, as a note under them says. Everything is
 * written with `textContent`, so no answer can inject markup. (The source is a raw template: it holds
 * no backtick and no dollar-brace, which would end or fill it.)
 */
const SCRIPT = String.raw`(function () {
  'use strict';
  var REASONS = __REASONS__;
  var CHECKS = __CHECKS__;
  var SHAPED = __SHAPED__;
  var SHOWN = ['Location', 'Link', 'Idempotent-Replayed', 'Retry-After', 'Deprecation', 'Sunset', 'WWW-Authenticate', 'X-Request-Id'];
  var TICK = String.fromCharCode(96);
  var here = window.location;
  var base = here.pathname.replace(/\/docs$/, '');
  var keyField = document.getElementById('api-key');
  // Enter in the key field submits its form, which the policy (form-action 'none') would refuse: the key goes nowhere but into the console's requests.
  if (keyField && keyField.form) keyField.form.addEventListener('submit', function (event) { event.preventDefault(); });
  Array.prototype.forEach.call(document.querySelectorAll('.origin'), function (node) { node.textContent = here.origin; });
  // A citation opens the interface's text in a new tab: this page keeps its key and the consoles' answers.
  Array.prototype.forEach.call(document.querySelectorAll('a[href^="docs/interface"]'), function (link) { link.target = '_blank'; link.rel = 'noopener'; });

  function add(parent, tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    parent.appendChild(node);
    return node;
  }
  function button(parent, className, text, onClick) {
    var node = add(parent, 'button', className, text);
    node.type = 'button';
    node.addEventListener('click', onClick);
    return node;
  }
  function quoted(text) {
    return "'" + text.replace(/'/g, "'\\''") + "'";
  }
  function literal(text) {
    return "'" + text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
  }
  function curlOf(request) {
    var parts = ['curl -i'];
    if (request.method !== 'GET') parts.push('-X ' + request.method);
    if (request.hasKey) parts.push('-H "Authorization: Bearer $API_KEY"');
    Object.keys(request.headers).forEach(function (name) { parts.push('-H ' + quoted(name + ': ' + request.headers[name])); });
    if (request.body !== undefined) parts.push("-H 'Content-Type: application/json'", '--data ' + quoted(request.body));
    parts.push(quoted(request.url));
    return parts.join(' \\\n  ');
  }
  function parsed(text) {
    try {
      return { value: JSON.parse(text) };
    } catch (error) {
      return undefined;
    }
  }
  function fetchOf(request) {
    var headers = [];
    if (request.hasKey) headers.push('Authorization: ' + TICK + 'Bearer $' + '{process.env.API_KEY}' + TICK);
    if (request.body !== undefined) headers.push("'Content-Type': 'application/json'");
    Object.keys(request.headers).forEach(function (name) { headers.push(literal(name) + ': ' + literal(request.headers[name])); });
    var options = [];
    if (request.method !== 'GET') options.push("method: '" + request.method + "'");
    if (headers.length > 0) options.push('headers: {\n    ' + headers.join(',\n    ') + ',\n  }');
    if (request.body !== undefined) {
      var json = parsed(request.body);
      options.push('body: ' + (json ? 'JSON.stringify(' + JSON.stringify(json.value, null, 2).split('\n').join('\n  ') + ')' : literal(request.body)));
    }
    var call = 'fetch(' + literal(request.url) + (options.length > 0 ? ', {\n  ' + options.join(',\n  ') + ',\n}' : '') + ')';
    return 'const response = await ' + call + ';\nconsole.log(response.status, await response.json());';
  }
  function argumentOf(value) {
    return /^-?\d+$/.test(value) ? value : literal(value);
  }
  function clientOf(request, operation) {
    var url = new URL(request.url);
    var lines = ["import { PetstoreClient } from 'petstore-reference/client';", '', 'const client = new PetstoreClient({ baseUrl: ' + literal(here.origin + base) + ', apiKey: process.env.API_KEY });'];
    if (operation === 'listPets') {
      var query = [];
      url.searchParams.forEach(function (value, name) { query.push(name + ': ' + argumentOf(value)); });
      lines.push('const pets = await client.listPets(' + (query.length > 0 ? '{ ' + query.join(', ') + ' }' : '') + ');', 'console.log(pets);');
    } else if (operation === 'getPet') {
      lines.push('const pet = await client.getPet(' + argumentOf(decodeURIComponent(url.pathname.split('/').pop() || '')) + ');', 'console.log(pet);');
    } else {
      var json = parsed(request.body || '');
      if (!json || typeof json.value !== 'object' || json.value === null || Array.isArray(json.value)) return '// The client sends a NewPet object: this body is not one, so only curl and fetch can send it.';
      var sent = request.headers['Idempotency-Key'];
      // The client takes the key itself and quotes it as a Structured Field String; without one it makes a fresh key per call.
      var quotedKey = sent === undefined ? null : /^"((?:[^"\\]|\\.)*)"$/.exec(sent);
      var key = sent === undefined ? undefined : quotedKey ? quotedKey[1].replace(/\\(.)/g, '$1') : sent;
      if (key === undefined) lines.push('// The client sends a fresh Idempotency-Key with each create, and the same one when it retries.');
      lines.push('const pet = await client.createPet(' + JSON.stringify(json.value, null, 2) + (key === undefined ? '' : ', { idempotencyKey: ' + literal(key) + ' }') + ');', 'console.log(pet);');
    }
    return lines.join('\n');
  }
  // Which snippets the learner opened, so the next answer shows them open too.
  var openSnippets = { curl: true };
  function copyable(parent, className, text, label) {
    var box = add(parent, 'div', 'copyable');
    add(add(box, 'pre', className), 'code', '', text);
    var node = button(box, 'copy secondary', 'Copy', function () {
      var done = function (message) { node.textContent = message; };
      if (!navigator.clipboard) return done('Select the text to copy it');
      navigator.clipboard.writeText(text).then(function () { done('Copied'); }, function () { done('Not copied: select the text'); });
    });
    node.setAttribute('aria-label', 'Copy ' + label);
  }
  function snippet(parent, title, className, text) {
    var box = add(parent, 'details', 'snippet');
    box.open = openSnippets[className] === true;
    box.addEventListener('toggle', function () { openSnippets[className] = box.open; });
    add(box, 'summary', '', title);
    copyable(box, className, text, 'the ' + title + ' request');
  }
  function nextOf(link) {
    if (!link) return undefined;
    var pattern = /<([^>]*)>([^,]*)/g;
    for (var match = pattern.exec(link); match !== null; match = pattern.exec(link)) {
      if (/;\s*rel="?next"?(\s|;|$)/i.test(match[2])) {
        var url = new URL(match[1], here.href);
        // The key goes to this page's server only.
        return url.origin === here.origin ? url.href : undefined;
      }
    }
    return undefined;
  }
  function pretty(text) {
    if (text === '') return '(no body)';
    var json = parsed(text);
    return json ? JSON.stringify(json.value, null, 2) : text;
  }
  // The paths of a form's operation: its template under the base path, each parameter one segment, whose name goes into names.
  function routeOf(form, names) {
    var pattern = (form.getAttribute('data-path') || '').replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, function (all, name) { names.push(name); return '([^/]+)'; });
    return new RegExp('^' + base.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&') + pattern + '$');
  }
  // The GET console whose path template the URL fills (Location of a create → getPet), and the values of its path parameters.
  function consoleFor(location) {
    var path = new URL(location, here.href).pathname;
    var forms = document.querySelectorAll('form.try[data-method="GET"]');
    for (var index = 0; index < forms.length; index++) {
      var names = [];
      var match = routeOf(forms[index], names).exec(path);
      if (match && names.length > 0) return { form: forms[index], values: names.map(function (name, at) { return [name, decodeURIComponent(match[at + 1])]; }) };
    }
    return undefined;
  }
  function locationValue(cell, value) {
    var target = consoleFor(value);
    if (!target) return add(cell, 'span', '', value);
    var operation = target.form.getAttribute('data-operation');
    var link = add(cell, 'a', '', value);
    link.href = '#' + operation + '-try';
    add(cell, 'span', 'hint', ' (opens ' + operation + ' with this id)');
    link.addEventListener('click', function () {
      target.values.forEach(function (pair) {
        var field = target.form.querySelector('[data-in="path"][name="' + pair[0] + '"]');
        if (field) field.value = pair[1];
      });
      var send = target.form.querySelector('button[type="submit"]');
      if (send) window.setTimeout(function () { send.focus({ preventScroll: true }); }, 0);
    });
  }
  function keyPointer(result) {
    var note = add(result, 'p', 'key-pointer', 'This request needs a key the server knows. Type it in the API key field at the top of the page; a server started without PETSTORE_API_KEYS prints a development key on its standard output. ');
    button(note, 'secondary', 'Go to the key field', function () { if (keyField) keyField.focus(); });
    var where = add(note, 'a', '', 'Where keys come from');
    where.href = '#get-a-key';
    note.insertBefore(document.createTextNode(' '), where);
  }
  // Text in the documents' markup: what is between backticks is code.
  function coded(parent, text) {
    text.split(TICK).forEach(function (part, at) { if (part) add(parent, at % 2 ? 'code' : 'span', '', part); });
  }
  function cite(parent, clause) {
    if (!/^\d/.test(clause)) return add(parent, 'span', 'cite', ' [' + clause + ']');
    var node = add(parent, 'span', 'cite', ' \x5bspec ');
    clause.split(', ').forEach(function (number, at) {
      if (at > 0) node.appendChild(document.createTextNode(', '));
      var link = add(node, 'a', '', number);
      link.href = 'docs/interface#spec-' + number;
      link.target = '_blank';
      link.rel = 'noopener';
    });
    node.appendChild(document.createTextNode(']'));
  }
  function isShaped(shape, answer, json, error, operation) {
    var details = error && Array.isArray(error.details) ? error.details : [];
    var value = json && json.value && typeof json.value === 'object' ? json.value : undefined;
    return (shape.status === undefined || shape.status === answer.code)
      && (shape.code === undefined || (error && typeof error.code === 'string' && (shape.code === '*' || error.code === shape.code)))
      && (shape.lacks === undefined || (value !== undefined && !(shape.lacks in value)))
      && (shape.operation === undefined || shape.operation === operation)
      && (shape.header === undefined || (answer.headers && answer.headers.get(shape.header) !== null))
      && (shape.field === undefined || details.some(function (detail) { return detail.field === shape.field; }))
      && (shape.fieldNotIn === undefined || details.some(function (detail) { return detail.field && shape.fieldNotIn.indexOf(detail.field) === -1; }));
  }
  // Why the server answered so: the order of checks (the list the core runs), the check that decided, what gets past it, and the decisions that shaped the answer.
  function explain(result, form, request, answer, text) {
    var operation = form.getAttribute('data-operation');
    var json = parsed(text);
    var error = answer.code >= 400 && json && json.value && typeof json.value === 'object' ? json.value : undefined;
    // A path of the form's operation, every parameter filled: then the path check passed.
    var isRoute = routeOf(form, []).test(new URL(request.url).pathname);
    var isUnderBase = new URL(request.url).pathname.indexOf(base + '/') === 0;
    var from = CHECKS.map(function (check) { return check.status; }).indexOf(401);
    var decided = -1;
    CHECKS.forEach(function (check, at) {
      if (decided !== -1 || check.status !== answer.code || (check.code && check.code !== (error && error.code))) return;
      // Before auth only the base path can refuse a console's request: the browser sends one valid Host, and never OPTIONS.
      if (at < from ? check.status !== 404 || isUnderBase : check.status === 404 && isRoute) return;
      if (check.operation && check.operation !== operation) return;
      decided = at;
    });
    var box = add(result, 'details', 'why');
    box.open = answer.code >= 400;
    var title = decided === -1
      ? (answer.code < 400 ? 'every check passed, then ' + operation + ' answered' : 'every check passed; ' + operation + ' itself refused')
      : 'the check “' + CHECKS[decided].check.replace(new RegExp(TICK, 'g'), '') + '” refused it';
    add(box, 'summary', '', 'Why this answer: ' + title);
    var list = add(box, 'ol', 'checks');
    CHECKS.forEach(function (check, at) {
      var isSkipped = check.operation && check.operation !== operation;
      var state = isSkipped ? 'skipped' : decided === -1 || at < decided ? 'passed' : at === decided ? 'decided' : 'unreached';
      var item = add(list, 'li', state, { passed: '\u2713 ', decided: '\u2717 ', skipped: '\u2013 ', unreached: '\u00b7 ' }[state]);
      coded(item, check.check);
      cite(item, check.clause);
      if (isSkipped) add(item, 'span', 'hint', ' (only on ' + check.operation + ')');
      if (state === 'unreached') add(item, 'span', 'hint', ' (not reached)');
      if (state === 'decided') item.setAttribute('aria-current', 'step');
    });
    if (decided === -1) add(list, 'li', answer.code < 400 ? 'passed' : 'decided', (answer.code < 400 ? '\u2713 ' : '\u2717 ') + operation + ' answered ' + answer.code);
    var past = add(box, 'p', 'past');
    if (decided !== -1) coded(past, 'To get past it: ' + (CHECKS[decided].past || ''));
    else if (error) coded(past, 'The request passed every check; ' + operation + ' refused it: ' + (error.message || ''));
    else coded(past, 'It passed every check that applies to ' + operation + '.');
    var problems = error && Array.isArray(error.details) ? error.details : [];
    if (problems.length > 0) {
      var rules = add(box, 'ul', 'problems');
      // Each message names its field and the rule it breaks.
      problems.forEach(function (problem) { coded(add(rules, 'li'), String(problem.message)); });
    }
    SHAPED.forEach(function (entry) {
      var decision = document.getElementById(entry[0]);
      if (!decision || !entry[1].some(function (shape) { return isShaped(shape, answer, json, error, operation); })) return;
      var note = add(box, 'p', 'decision-note', 'Decided where the interface is silent: ');
      var link = add(note, 'a', '', decision.querySelector('h3').textContent);
      link.href = '#' + entry[0];
      add(note, 'span', '', ': ' + decision.querySelector('p').textContent);
    });
    var order = add(add(box, 'p', 'hint', 'The order itself is a decision: '), 'a', '', 'Order of checks');
    order.href = '#decision-order-of-checks';
  }
  function finish(result, form, request, answer) {
    result.textContent = '';
    result.removeAttribute('aria-busy');
    var line = add(result, 'p', 'answer-line');
    add(line, 'span', 'status status-' + (answer.code ? String(answer.code).charAt(0) + 'xx' : 'none'), answer.status);
    if (answer.milliseconds !== undefined) add(line, 'span', 'elapsed', ' in ' + answer.milliseconds + ' ms');
    if (answer.code === 401) keyPointer(result);
    if (answer.code) explain(result, form, request, answer, answer.text);
    add(result, 'h4', '', 'Headers');
    var list = add(result, 'dl', 'headers');
    SHOWN.forEach(function (name) {
      var value = answer.headers ? answer.headers.get(name) : null;
      if (value === null) return;
      add(list, 'dt', '', name);
      var cell = add(list, 'dd');
      if (name === 'Location') return locationValue(cell, value);
      add(cell, 'span', '', value);
      // RFC 9745 gives the date as seconds (@1767225600): the day beside it.
      var seconds = name === 'Deprecation' ? /^@(\d+)$/.exec(value) : null;
      var day = seconds && new Date(Number(seconds[1]) * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
      if (day) add(cell, 'span', 'when', ' (' + day + ')');
    });
    add(result, 'h4', '', 'Body');
    copyable(result, 'body', answer.text, 'the body');
    var next = answer.headers ? nextOf(answer.headers.get('Link')) : undefined;
    if (next !== undefined) {
      var follow = button(result, 'follow-next', 'Next page', function () {
        // The form shows the page it fetches: a learner sees limit, after and status change, and Send repeats it.
        var params = new URL(next).searchParams;
        Array.prototype.forEach.call(form.querySelectorAll('[data-in="query"]'), function (field) { field.value = params.get(field.name) || ''; });
        send(result, form, { method: 'GET', url: next, body: undefined, headers: {} }, follow);
      });
    }
    add(result, 'h4', '', 'The same request');
    if (request.hasKey) add(result, 'p', 'key-note', "These read the key from API_KEY, as the page never copies it: in a shell, export API_KEY='your key' first.");
    snippet(result, 'curl', 'curl', curlOf(request));
    snippet(result, 'JavaScript fetch', 'fetch', fetchOf(request));
    snippet(result, 'PetstoreClient', 'client', clientOf(request, form.getAttribute('data-operation')));
  }
  function send(result, form, request, trigger) {
    var key = keyField ? keyField.value.trim() : '';
    var headers = { Accept: 'application/json' };
    if (key !== '') headers.Authorization = 'Bearer ' + key;
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    Object.keys(request.headers).forEach(function (name) { headers[name] = request.headers[name]; });
    request.hasKey = key !== '';
    if (trigger) trigger.disabled = true;
    result.textContent = '';
    result.setAttribute('aria-busy', 'true');
    var started = performance.now();
    // fetch rejects, never throws: a key a header cannot carry ends in the catch below.
    return fetch(request.url, { method: request.method, headers: headers, body: request.body, cache: 'no-store', credentials: 'omit' })
      .then(function (response) {
        return response.text().then(function (text) {
          var reason = response.statusText || REASONS[response.status] || '';
          var milliseconds = Math.round(performance.now() - started);
          finish(result, form, request, { code: response.status, status: response.status + (reason ? ' ' + reason : ''), milliseconds: milliseconds, headers: response.headers, text: pretty(text) });
        });
      })
      .catch(function (error) {
        var message = error && error.message ? error.message : String(error);
        finish(result, form, request, { code: 0, status: 'No answer: ' + message + ' (is the server running, and is the key plain text?)', text: '(none)' });
      })
      .then(function () {
        if (trigger && trigger.isConnected) trigger.disabled = false;
      });
  }
  function freshKey() {
    if (window.crypto.randomUUID) return window.crypto.randomUUID();
    // Outside a secure context (plain http to another host) randomUUID is missing: a version 4 UUID from random bytes.
    var bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 15) | 64;
    bytes[8] = (bytes[8] & 63) | 128;
    var hex = Array.prototype.map.call(bytes, function (byte) { return (byte + 256).toString(16).slice(1); }).join('');
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
  }
  Array.prototype.forEach.call(document.querySelectorAll('button.new-key, button.reset-body'), function (control) {
    control.addEventListener('click', function () {
      var field = document.getElementById(control.getAttribute('data-field') || '');
      if (!field) return;
      // A Structured Field String, as draft-ietf-httpapi-idempotency-key-header asks; the body goes back to the example it was written with.
      field.value = control.classList.contains('new-key') ? '"' + freshKey() + '"' : field.defaultValue;
      field.focus();
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll('form.try'), function (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var result = document.querySelector('.result[data-operation="' + form.getAttribute('data-operation') + '"]');
      if (!result) return;
      var path = form.getAttribute('data-path') || '';
      var query = [];
      var headers = {};
      Array.prototype.forEach.call(form.querySelectorAll('[data-in]'), function (field) {
        var value = field.value.trim();
        var place = field.getAttribute('data-in');
        if (place === 'path') path = path.replace('{' + field.name + '}', encodeURIComponent(value));
        else if (value === '') return;
        else if (place === 'header') headers[field.name] = value;
        else query.push(encodeURIComponent(field.name) + '=' + encodeURIComponent(value));
      });
      var bodyField = form.querySelector('textarea[name="body"]');
      var request = {
        method: form.getAttribute('data-method') || 'GET',
        url: here.origin + base + path + (query.length > 0 ? '?' + query.join('&') : ''),
        body: bodyField ? bodyField.value : undefined,
        headers: headers,
      };
      send(result, form, request, form.querySelector('button[type="submit"]'));
    });
  });
})();
`;

/**
 * The script without its indentation and its whole-line comments, which only its readers here need:
 * safe, since no string or regular expression of it spans lines. The page stays well under 100 KB.
 */
function compacted(script: string): string {
  return script.replace(/^[ ]+/gm, '').replace(/^\/\/.*\n/gm, '');
}

/** The console's script as the page inlines it, with the reason phrases of the statuses it may show, the order of checks and the answers the decisions shape. */
export const CONSOLE_SCRIPT = compacted(SCRIPT).replace('__REASONS__', () => JSON.stringify(STATUS_REASONS)).replace('__CHECKS__', () => JSON.stringify(checkViews())).replace('__SHAPED__', () => JSON.stringify(shapedAnswers()));
