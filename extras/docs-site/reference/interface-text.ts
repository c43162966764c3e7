// Generated from docs/interface.md by `npm run interface-text`: edit that file and run the script, never this one.
// A test fails when this module is older than the text.

/** One numbered section of the interface's text: its anchor, its heading level and its heading as HTML. */
export interface InterfaceSection {
  readonly id: string;
  readonly level: number;
  readonly html: string;
}

/** The title of docs/interface.md. */
export const INTERFACE_TITLE = "The Petstore interface";

/** Its numbered sections, in order, each with the anchor a citation such as `[spec 4.1]` links to. */
export const INTERFACE_SECTIONS: readonly InterfaceSection[] = [
  {
    "id": "spec-1",
    "level": 2,
    "html": "1 What the service does"
  },
  {
    "id": "spec-2",
    "level": 2,
    "html": "2 Resources and their fields"
  },
  {
    "id": "spec-3",
    "level": 2,
    "html": "3 States"
  },
  {
    "id": "spec-4",
    "level": 2,
    "html": "4 Operations"
  },
  {
    "id": "spec-4.1",
    "level": 3,
    "html": "4.1 List animals: <code>GET /pets</code> (<code>listPets</code>)"
  },
  {
    "id": "spec-4.2",
    "level": 3,
    "html": "4.2 Add an animal: <code>POST /pets</code> (<code>createPet</code>)"
  },
  {
    "id": "spec-4.3",
    "level": 3,
    "html": "4.3 Get an animal: <code>GET /pets/{petId}</code> (<code>getPet</code>), deprecated"
  },
  {
    "id": "spec-4.4",
    "level": 3,
    "html": "4.4 What the interface leaves out"
  },
  {
    "id": "spec-5",
    "level": 2,
    "html": "5 Authentication"
  },
  {
    "id": "spec-5.1",
    "level": 3,
    "html": "5.1 Every operation needs a key"
  },
  {
    "id": "spec-5.2",
    "level": 3,
    "html": "5.2 The header"
  },
  {
    "id": "spec-5.3",
    "level": 3,
    "html": "5.3 The scheme"
  },
  {
    "id": "spec-5.4",
    "level": 3,
    "html": "5.4 A missing or invalid key"
  },
  {
    "id": "spec-5.5",
    "level": 3,
    "html": "5.5 Getting a key, and the content type"
  },
  {
    "id": "spec-6",
    "level": 2,
    "html": "6 Events"
  },
  {
    "id": "spec-7",
    "level": 2,
    "html": "7 Errors"
  },
  {
    "id": "spec-8",
    "level": 2,
    "html": "8 Limits"
  },
  {
    "id": "spec-9",
    "level": 2,
    "html": "9 Versioning"
  }
];

/** Its text below the title, as HTML. */
export const INTERFACE_HTML = "<p>This page states the interface this project implements, in the project's own words. Its section numbers are the ones the code, the tests and the other documents cite as <code>[spec 4.1]</code>, <code>[spec 5.4]</code> and so on; a test checks that every such citation names a section below. Where the interface says nothing, the project decided, and <a href=\"../docs#decisions\">spec-conformance.md</a> records each decision with its reason; conformance-kit.md lists the checks that test an implementation against this page.</p>\n<h2 id=\"spec-1\">1 What the service does</h2>\n<p>A small HTTP service with JSON bodies that keeps a pet store's animals (pets). A client can list the animals, add one, and fetch one by its identifier. Every animal has a name, a category reference and an availability status.</p>\n<p>The service has a production address and a staging address; both end in the path prefix <code>/v1</code>, and every path below is relative to that prefix. Request and response bodies are JSON (<code>application/json</code>).</p>\n<h2 id=\"spec-2\">2 Resources and their fields</h2>\n<p><strong>PetStatus</strong>: a string, one of <code>available</code>, <code>pending</code>, <code>sold</code>.</p>\n<p><strong>NewPet</strong>, the body that adds an animal:</p>\n<table><thead><tr><th scope=\"col\">field</th><th scope=\"col\">type</th><th scope=\"col\">required</th><th scope=\"col\">meaning</th></tr></thead><tbody><tr><td><code>name</code></td><td>string</td><td>yes</td><td>the animal's name</td></tr><tr><td><code>categoryId</code></td><td>integer (int64)</td><td>yes</td><td>the category the animal belongs to</td></tr><tr><td><code>status</code></td><td>PetStatus</td><td>no</td><td>its availability; the interface gives no default</td></tr></tbody></table>\n<p><strong>Pet</strong>, an animal as the service answers it: every field of NewPet, plus <code>id</code>, an integer (int64) the service assigns when the animal is added. <code>id</code> is always present and unique.</p>\n<p><strong>Pets</strong>: a JSON array of Pet.</p>\n<p><strong>Error</strong>, the body of every error answer:</p>\n<table><thead><tr><th scope=\"col\">field</th><th scope=\"col\">type</th><th scope=\"col\">required</th><th scope=\"col\">meaning</th></tr></thead><tbody><tr><td><code>code</code></td><td>string</td><td>yes</td><td>a machine-readable error code (Error.code)</td></tr><tr><td><code>message</code></td><td>string</td><td>yes</td><td>a description for people</td></tr><tr><td><code>status</code></td><td>integer</td><td>yes</td><td>the HTTP status of the answer</td></tr></tbody></table>\n<p>Categories exist only as the <code>categoryId</code> reference; nothing more of them is shown.</p>\n<h2 id=\"spec-3\">3 States</h2>\n<p>An animal's <code>status</code> is one of the three PetStatus values. Only <code>available</code> has a stated meaning (the animal is available); <code>pending</code> and <code>sold</code> are named and not explained. No operation changes the status of an animal that exists: a status can only be given when the animal is added.</p>\n<h2 id=\"spec-4\">4 Operations</h2>\n<p>Every operation requires the bearer credential of <a href=\"#spec-5\">§5</a>.</p>\n<h3 id=\"spec-4.1\">4.1 List animals: <code>GET /pets</code> (<code>listPets</code>)</h3>\n<p>Answers a page of animals. Query parameters, both optional:</p>\n<table><thead><tr><th scope=\"col\">name</th><th scope=\"col\">type</th><th scope=\"col\">constraint</th></tr></thead><tbody><tr><td><code>limit</code></td><td>integer</td><td>the most animals answered: minimum 1, maximum 100, default 20</td></tr><tr><td><code>status</code></td><td>PetStatus</td><td>only animals with this status</td></tr></tbody></table>\n<p>No request body. Answers: <code>200</code> with a Pets body; <code>401</code> with an Error body when the credential is missing or invalid.</p>\n<h3 id=\"spec-4.2\">4.2 Add an animal: <code>POST /pets</code> (<code>createPet</code>)</h3>\n<p>The request body is required: a NewPet (<code>name</code> and <code>categoryId</code> present), sent as <code>application/json</code>. Answers: <code>201</code> with the added animal as a Pet, including the <code>id</code> the service assigned; <code>400</code> with an Error body when required fields are missing or values are invalid; <code>401</code> with an Error body when the credential is missing or invalid.</p>\n<h3 id=\"spec-4.3\">4.3 Get an animal: <code>GET /pets/{petId}</code> (<code>getPet</code>), deprecated</h3>\n<p><code>petId</code> is a required path parameter, an integer (int64): the identifier of the animal. No request body. Answers: <code>200</code> with the animal as a Pet; <code>401</code> with an Error body when the credential is missing or invalid; <code>404</code> with an Error body when no animal has this identifier.</p>\n<p>The operation is deprecated and goes away on 5 December 2030; its replacement is <code>GET /pets</code> with the <code>status</code> filter.</p>\n<h3 id=\"spec-4.4\">4.4 What the interface leaves out</h3>\n<ul><li>Paging beyond <code>limit</code> (page numbers, offsets, cursors, or fields that describe further pages) is not shown.</li><li>A store area with an orders operation (<code>GET /store/orders</code>) is named in passing; its paths, parameters and bodies are not shown.</li><li>A quickstart uses another example address and a message operation: <code>POST /messages</code> with a JSON body whose string field <code>message</code> is required, sent with <code>Content-Type: application/json</code>. A success answers a JSON object with <code>id</code> (string), <code>message</code> (string), <code>status</code> (string; <code>queued</code> appears) and <code>createdAt</code> (an ISO 8601 timestamp). Its errors are only these: <code>401</code> when the key is missing or invalid, <code>400</code> when the body is not valid JSON or lacks <code>message</code>. It is a template, separate from the pet operations.</li></ul>\n<h2 id=\"spec-5\">5 Authentication</h2>\n<h3 id=\"spec-5.1\">5.1 Every operation needs a key</h3>\n<p>Every operation of the service requires an API key, sent as a bearer token.</p>\n<h3 id=\"spec-5.2\">5.2 The header</h3>\n<p>The key travels as <code>Authorization: Bearer &lt;API_KEY&gt;</code>.</p>\n<h3 id=\"spec-5.3\">5.3 The scheme</h3>\n<p>The security scheme is HTTP with the scheme <code>bearer</code>.</p>\n<h3 id=\"spec-5.4\">5.4 A missing or invalid key</h3>\n<p>When the key is missing or invalid, the answer is <code>401</code> with an Error body.</p>\n<h3 id=\"spec-5.5\">5.5 Getting a key, and the content type</h3>\n<p>How a key is obtained (an account, then a generated key) is not part of the interface. Requests that carry a body send <code>Content-Type: application/json</code>.</p>\n<h2 id=\"spec-6\">6 Events</h2>\n<p>None: the interface describes no webhooks, notifications or event kinds.</p>\n<h2 id=\"spec-7\">7 Errors</h2>\n<p>Every error answer has the Error body of <a href=\"#spec-2\">§2</a>.</p>\n<table><thead><tr><th scope=\"col\">HTTP status</th><th scope=\"col\">when</th><th scope=\"col\">operations</th></tr></thead><tbody><tr><td>400</td><td>the body lacks required fields or has invalid values</td><td><code>POST /pets</code></td></tr><tr><td>401</td><td>the API key is missing or invalid</td><td>all three</td></tr><tr><td>404</td><td>no animal has the requested identifier</td><td><code>GET /pets/{petId}</code></td></tr></tbody></table>\n<p>The set of <code>code</code> values is not shown.</p>\n<h2 id=\"spec-8\">8 Limits</h2>\n<p><code>limit</code> of <code>GET /pets</code> runs from 1 to 100, with 20 as the default. Rate limits and request size limits are not shown.</p>\n<h2 id=\"spec-9\">9 Versioning</h2>\n<p>The interface version is <code>1.0.0</code>, and the version appears in the path prefix <code>/v1</code>. <code>GET /pets/{petId}</code> is deprecated and removed on 5 December 2030. Some operations of the store area may carry the stability labels <code>experimental</code> or <code>beta</code>; they are not otherwise described.</p>";
