/**
 * Where the interview room lives: /i/{linkID} (the page) and /i/{linkID}/... (its JSON). The global
 * middleware (rate limits, body limit, headers, logs) and the exception filter ask here. They read the
 * request's originalUrl: inside middleware mounted by Nest, req.path is relative to the mount point.
 */
const ROOM = /^\/i\/([^/?]+)(\/[^?]*)?/;

/** The path of a request, without its query string. */
export function pathOf(url: string | undefined): string {
  const text = url ?? '';
  const query = text.indexOf('?');
  return query < 0 ? text : text.slice(0, query);
}

/** Every room path starts so; anything else (all of /v1) needs no pattern run. */
const isRoomPath = (path: string): boolean => path.startsWith('/i/');

/** The linkID segment of a room path, or undefined for any other path. */
export function roomLinkOf(url: string | undefined): string | undefined {
  const path = pathOf(url);
  return isRoomPath(path) ? ROOM.exec(path)?.[1] : undefined;
}

/** The room's HTML page itself (GET /i/{linkID}), as opposed to its JSON API. */
export function isRoomPage(url: string | undefined): boolean {
  const match = ROOM.exec(pathOf(url));
  return !!match && (match[2] === undefined || match[2] === '/');
}

/** The path as logged: the linkID (the interviewee's credential) replaced, the query string dropped. */
export function loggedPath(url: string | undefined): string {
  const path = pathOf(url);
  return isRoomPath(path) ? path.replace(ROOM, (_all, _link: string, rest: string | undefined) => `/i/:linkID${rest ?? ''}`) : path;
}
