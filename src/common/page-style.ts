/**
 * What the service's pages for people (the interview room, the shared report) share in style: the house
 * palette and the rules every page starts with. The report inlines it ahead of its own rules in its one
 * hashed style block; the room serves it ahead of room.css. Each page sets its own type size.
 * ASCII only: the report's CSP names its style by the hash of its UTF-8 bytes.
 */
export const PAGE_BASE_STYLE = `:root {
  --ink: #1b2330;
  --muted: #5a6575;
  --line: #dfe3e9;
  --field: #b9c2ce;
  --paper: #ffffff;
  --page: #f4f6f8;
  --accent: #2f5bd3;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--page);
  color: var(--ink);
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif;
  -webkit-font-smoothing: antialiased;
}
/* Read by screen readers, not shown. */
.visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
}
`;
