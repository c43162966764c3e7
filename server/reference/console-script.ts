import { STATUS_REASONS } from './status-reasons.js';

/**
 * The console's script, plain ES2017 for any current browser. It sends each form's request with
 * `fetch` to the page's own origin (the base path is the page's own path without `/docs`, so it
 * follows a host framework's mount prefix), and shows the status line, the headers that matter
 * here, the body and the same request as `curl -i`. The key is read from its field at each send and
 * kept nowhere else: no storage, no cookie, never in a URL; the curl command shows `$API_KEY`.
 * Everything is written with `textContent`, so no answer can inject markup.
 */
const SCRIPT = String.raw`(function () {
  'use strict';
  var REASONS = __REASONS__;
  var SHOWN = ['Location', 'Link', 'Deprecation', 'Sunset', 'WWW-Authenticate', 'X-Request-Id'];
  var here = window.location;
  var base = here.pathname.replace(/\/docs$/, '');
  var keyField = document.getElementById('api-key');
  // Enter in the key field submits its form, which the policy (form-action 'none') would refuse: the key goes nowhere but into the console's requests.
  if (keyField && keyField.form) keyField.form.addEventListener('submit', function (event) { event.preventDefault(); });
  Array.prototype.forEach.call(document.querySelectorAll('.origin'), function (node) { node.textContent = here.origin; });

  function add(parent, tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    parent.appendChild(node);
    return node;
  }
  function quoted(text) {
    return "'" + text.replace(/'/g, "'\\''") + "'";
  }
  function curlOf(request) {
    var parts = ['curl -i'];
    if (request.method !== 'GET') parts.push('-X ' + request.method);
    if (request.hasKey) parts.push('-H "Authorization: Bearer $API_KEY"');
    if (request.body !== undefined) {
      parts.push("-H 'Content-Type: application/json'");
      parts.push('--data ' + quoted(request.body));
    }
    parts.push(quoted(request.url));
    return parts.join(' \\\n  ');
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
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch (error) {
      return text;
    }
  }
  function finish(result, request, code, status, headers, text) {
    result.textContent = '';
    result.removeAttribute('aria-busy');
    add(result, 'p', 'status status-' + (code ? String(code).charAt(0) + 'xx' : 'none'), status);
    add(result, 'h4', '', 'Headers');
    var list = add(result, 'dl', 'headers');
    SHOWN.forEach(function (name) {
      var value = headers ? headers.get(name) : null;
      if (value === null) return;
      add(list, 'dt', '', name);
      add(list, 'dd', '', value);
    });
    add(result, 'h4', '', 'Body');
    add(add(result, 'pre', 'body'), 'code', '', text);
    add(result, 'h4', '', 'The same request with curl');
    add(add(result, 'pre', 'curl'), 'code', '', curlOf(request));
    var next = headers ? nextOf(headers.get('Link')) : undefined;
    if (next !== undefined) {
      var button = add(result, 'button', 'follow-next', 'Next page');
      button.type = 'button';
      button.addEventListener('click', function () {
        send(result, { method: 'GET', url: next, body: undefined }, button);
      });
    }
  }
  function send(result, request, trigger) {
    var key = keyField ? keyField.value.trim() : '';
    var headers = { Accept: 'application/json' };
    if (key !== '') headers.Authorization = 'Bearer ' + key;
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    request.hasKey = key !== '';
    if (trigger) trigger.disabled = true;
    result.textContent = '';
    result.setAttribute('aria-busy', 'true');
    return Promise.resolve()
      .then(function () {
        return fetch(request.url, { method: request.method, headers: headers, body: request.body, cache: 'no-store', credentials: 'omit' });
      })
      .then(function (response) {
        return response.text().then(function (text) {
          var reason = response.statusText || REASONS[response.status] || '';
          finish(result, request, response.status, response.status + (reason ? ' ' + reason : ''), response.headers, pretty(text));
        });
      })
      .catch(function (error) {
        var message = error && error.message ? error.message : String(error);
        finish(result, request, 0, 'No answer: ' + message + ' (is the server running, and is the key plain text?)', undefined, '(none)');
      })
      .then(function () {
        if (trigger && trigger.isConnected) trigger.disabled = false;
      });
  }
  function resultOf(form) {
    var operation = form.getAttribute('data-operation');
    var results = document.querySelectorAll('.result');
    for (var index = 0; index < results.length; index++) {
      if (results[index].getAttribute('data-operation') === operation) return results[index];
    }
    return undefined;
  }
  Array.prototype.forEach.call(document.querySelectorAll('form.try'), function (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var result = resultOf(form);
      if (result === undefined) return;
      var path = form.getAttribute('data-path') || '';
      var query = [];
      Array.prototype.forEach.call(form.querySelectorAll('[data-in]'), function (field) {
        var value = field.value.trim();
        if (field.getAttribute('data-in') === 'path') path = path.replace('{' + field.name + '}', encodeURIComponent(value));
        else if (value !== '') query.push(encodeURIComponent(field.name) + '=' + encodeURIComponent(value));
      });
      var bodyField = form.querySelector('textarea[name="body"]');
      var request = {
        method: form.getAttribute('data-method') || 'GET',
        url: here.origin + base + path + (query.length > 0 ? '?' + query.join('&') : ''),
        body: bodyField ? bodyField.value : undefined,
      };
      send(result, request, form.querySelector('button[type="submit"]'));
    });
  });
})();
`;

/** The console's script as the page inlines it, with the reason phrases of the statuses it may show. */
export const CONSOLE_SCRIPT = SCRIPT.replace('__REASONS__', JSON.stringify(STATUS_REASONS));
