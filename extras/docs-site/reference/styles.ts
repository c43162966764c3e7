/**
 * The reference pages' stylesheet: the system's fonts, a contents column on wide screens, colours of at least 4.5:1 contrast, light or
 * dark as the reader's system prefers; code blocks wrap rather than scroll, so no region needs the keyboard to scroll it.
 */
const STYLES = `
:root {
  color-scheme: light dark;
  --text: #1f2328; --muted: #4d5560; --background: #ffffff; --surface: #f5f7f9; --border: #d0d7de;
  --link: #0b57d0; --code: #eef1f4; --accent: #0b57d0;
  --get: #136c35; --post: #0b57d0;
  --ok-text: #0d5c2e; --ok-background: #e3f4e8; --client-text: #7a4100; --client-background: #fff1dc;
  --server-text: #8a1c1c; --server-background: #fde8e7; --notice: #fff6d6; --notice-border: #c99a00;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  line-height: 1.55;
}
@media (prefers-color-scheme: dark) {
  :root {
    --text: #e6e8eb; --muted: #a9b1bb; --background: #15181c; --surface: #1e2228; --border: #3a424c;
    --link: #8ab4f8; --code: #262b33; --accent: #8ab4f8;
    --ok-text: #9be0b0; --ok-background: #173323; --client-text: #ffcf8a; --client-background: #3a2a12;
    --server-text: #ffb4ae; --server-background: #3d1b1a; --notice: #2e2810; --notice-border: #c99a00;
  }
}
* { box-sizing: border-box; }
body { margin: 0; color: var(--text); background: var(--background); font-size: 1rem; }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
code, pre, textarea, input, select { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
code { background: var(--code); padding: 0.05em 0.3em; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 0.75rem 1rem; line-height: 1.45; white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { background: none; padding: 0; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--background); padding: 0.5rem; z-index: 2; }
header.page { border-bottom: 1px solid var(--border); background: var(--surface); padding: 1.5rem 1.5rem 1rem; }
header.page h1 { margin: 0 0 0.25rem; font-size: 1.9rem; line-height: 1.2; }
header.page p { margin: 0.25rem 0; color: var(--muted); max-width: 60rem; }
.layout { display: grid; grid-template-columns: 15rem minmax(0, 1fr); gap: 2.5rem; max-width: 82rem; margin: 0 auto; padding: 0 1.5rem; }
nav.contents { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; padding: 1.5rem 0; font-size: 0.95rem; }
nav.contents h2 { font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin: 0 0 0.5rem; }
nav.contents ul { list-style: none; margin: 0; padding: 0; }
nav.contents ul ul { padding-left: 0.9rem; }
nav.contents li { margin: 0.2rem 0; }
nav.contents .try-link { font-size: 0.9rem; }
nav.contents a { text-decoration: none; }
nav.contents .sub { padding-left: 0.9rem; }
.interface-text :target { background: var(--notice); }
nav.contents a:hover { text-decoration: underline; }
main { min-width: 0; padding: 1rem 0 4rem; }
main > section { max-width: 56rem; border-bottom: 1px solid var(--border); padding: 1rem 0 2rem; }
h2 { font-size: 1.5rem; line-height: 1.3; margin: 1rem 0 0.75rem; }
h3 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; }
h4 { font-size: 1rem; margin: 1rem 0 0.35rem; }
p, li { max-width: 48rem; }
.method { display: inline-block; min-width: 3.6em; text-align: center; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.8em; font-weight: 700; color: #ffffff; border-radius: 4px; padding: 0.15em 0.45em; vertical-align: 0.1em; }
.method-get { background: var(--get); } .method-post { background: var(--post); }
.path { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: 0.7em; font-weight: 600; border-radius: 999px; padding: 0.15em 0.6em; vertical-align: 0.2em; }
.deprecated { background: var(--server-background); color: var(--server-text); border: 1px solid var(--server-text); }
.operation-head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0 1rem; }
.try-link { white-space: nowrap; }
.operation-head .try-link { font-weight: 600; border: 1px solid var(--link); border-radius: 6px; padding: 0.15rem 0.7rem; text-decoration: none; }
.operation-head .try-link::after { content: " ↓"; }
.operation-head .try-link:hover { background: var(--surface); }
.summary { color: var(--muted); }
.summary strong { color: var(--text); }
.notice { background: var(--notice); border-left: 4px solid var(--notice-border); padding: 0.75rem 1rem; border-radius: 4px; max-width: 48rem; }
.notice p { margin: 0.25rem 0; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; font-size: 0.95rem; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--border); padding: 0.45rem 0.6rem 0.45rem 0; }
tbody th { white-space: nowrap; }
thead th { font-size: 0.85rem; color: var(--muted); font-weight: 600; }
td ul { margin: 0; padding-left: 1.1rem; }
.where { color: var(--muted); }
.response { border-left: 3px solid var(--border); padding: 0.1rem 0 0.1rem 1rem; margin: 0.75rem 0; }
.status { font-weight: 700; border-radius: 4px; padding: 0.1em 0.45em; }
.status-2xx { color: var(--ok-text); background: var(--ok-background); }
.status-3xx, .status-4xx { color: var(--client-text); background: var(--client-background); }
.status-5xx { color: var(--server-text); background: var(--server-background); }
.codes { padding-left: 1.2rem; }
.schema { margin: 0.35rem 0; }
details { margin: 0.35rem 0 0.75rem; }
summary { cursor: pointer; color: var(--link); }
figure.example { margin: 0.5rem 0; }
figcaption { font-size: 0.9rem; color: var(--muted); }
form.try { background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: 1rem; max-width: 48rem; }
.key { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; max-width: 48rem; margin: 0 0 0.5rem; padding: 0.6rem 0.75rem; background: var(--surface); border: 1px solid var(--border); border-top: 0; border-radius: 0 0 8px 8px; }
.key label { font-weight: 600; }
.key input { flex: 1 1 10rem; max-width: 16rem; }
.key .hint { margin: 0; flex: 1 1 20rem; font-size: 0.85rem; }
main [id] { scroll-margin-top: 5.5rem; }
main.interface-text [id] { scroll-margin-top: 0.5rem; }
main.interface-text { max-width: 56rem; }
.result dd .hint { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
#api-key:focus { box-shadow: 0 0 0 3px var(--accent); }
form.try { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0.75rem 1rem; align-items: end; }
.field { display: flex; flex-direction: column; gap: 0.25rem; }
.field.wide { grid-column: 1 / -1; }
.field label { font-size: 0.95rem; }
input, select, textarea { color: var(--text); background: var(--background); border: 1px solid #6e7781; border-radius: 6px; padding: 0.45rem 0.55rem; }
input, select { height: 2.25rem; padding-top: 0; padding-bottom: 0; }
textarea { width: 100%; resize: vertical; line-height: 1.45; }
.actions { grid-column: 1 / -1; }
button { font: inherit; font-weight: 600; color: #ffffff; background: var(--post); border: 0; border-radius: 6px; padding: 0.5rem 1.4rem; cursor: pointer; }
button:disabled { opacity: 0.6; cursor: progress; }
button.follow-next { background: var(--get); margin-top: 0.5rem; }
button.secondary { color: var(--link); background: var(--background); border: 1px solid var(--link); padding: 0.3rem 0.8rem; font-size: 0.9rem; }
.with-button { display: flex; gap: 0.5rem; }
.with-button input { flex: 1; }
.copyable { position: relative; }
.copyable pre { padding-right: 5.5rem; margin: 0.25rem 0; }
.copyable .copy { position: absolute; top: 0.4rem; right: 0.4rem; }
.answer-line { margin: 0.25rem 0; }
.elapsed, .when { color: var(--muted); }
.key-pointer { background: var(--notice); border-left: 4px solid var(--notice-border); padding: 0.5rem 0.75rem; border-radius: 4px; }
.key-pointer button { margin-right: 0.5rem; }
.can-do li, .held li { margin: 0.3rem 0; }
.hint { color: var(--muted); font-size: 0.9rem; }
.result { max-width: 48rem; margin: 0.75rem 0 0; }
.result .status { display: inline-block; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; margin: 0.25rem 0; }
.result dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.2rem 1rem; margin: 0.5rem 0; font-size: 0.9rem; }
.result dt { font-weight: 600; }
.result dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.result h4 { margin: 0.75rem 0 0.25rem; font-size: 0.9rem; color: var(--muted); }
.decision { border-left: 3px solid var(--border); padding-left: 1rem; margin: 1rem 0; }
.decision:target { border-left-color: var(--accent); background: var(--surface); }
.decision p { margin: 0.35rem 0; }
.cite { color: var(--muted); white-space: nowrap; }
.why { border-left: 4px solid var(--border); padding: 0.25rem 0.75rem; margin: 0.5rem 0; }
.why summary, .snippet summary { font-weight: 600; }
.why ol { list-style: none; padding: 0; margin: 0.5rem 0; font-size: 0.9rem; }
.why .passed { color: var(--ok-text); }
.why .decided { color: var(--client-text); background: var(--client-background); font-weight: 700; }
.why .skipped, .why .unreached { color: var(--muted); }
.why p, .why ul { margin: 0.4rem 0; }
.decision-note { background: var(--notice); border-left: 4px solid var(--notice-border); padding: 0.4rem 0.75rem; }
.held { font-size: 0.9rem; border-left: 3px solid var(--border); padding-left: 0.75rem; }
footer.page { max-width: 82rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; color: var(--muted); font-size: 0.9rem; }
@media (max-width: 60rem) {
  .layout { grid-template-columns: minmax(0, 1fr); }
  nav.contents { position: static; max-height: none; border-bottom: 1px solid var(--border); }
}
@media (max-width: 40rem) {
  header.page, .layout { padding-left: 0.75rem; padding-right: 0.75rem; }
  .key .hint { display: none; }
  table { table-layout: fixed; }
  tbody th { white-space: normal; overflow-wrap: anywhere; }
  td { overflow-wrap: anywhere; }
}
`;

/** The stylesheet as the pages inline it, without the line breaks and spaces only its readers here need (none is in a string). */
export const REFERENCE_STYLES = STYLES.replace(/\n\s*/g, '').replace(/\s*([{};,])\s*/g, '$1').replace(/:\s+/g, ':');
