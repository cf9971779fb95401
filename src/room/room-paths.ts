/**
 * Where the interview room lives: /i/{linkID} (the page) and /i/{linkID}/... (its JSON). The global
 * middleware (rate limits, body limit, headers, logs) and the exception filter ask here. They read the
 * request's originalUrl: inside middleware mounted by Nest, req.path is relative to the mount point.
 */
const ROOM = /^\/i\/([^/?]+)(\/[^?]*)?/;

/** The path of a request, without its query string. */
export function pathOf(url: string | undefined): string {
  return (url ?? '').split('?', 1)[0];
}

/** The linkID segment of a room path, or undefined for any other path. */
export function roomLinkOf(url: string | undefined): string | undefined {
  return ROOM.exec(pathOf(url))?.[1];
}

/** The room's HTML page itself (GET /i/{linkID}), as opposed to its JSON API. */
export function isRoomPage(url: string | undefined): boolean {
  const match = ROOM.exec(pathOf(url));
  return !!match && (match[2] === undefined || match[2] === '/');
}

/** The path as logged: the linkID (the interviewee's credential) replaced, the query string dropped. */
export function loggedPath(url: string | undefined): string {
  return pathOf(url).replace(ROOM, (_all, _link: string, rest: string | undefined) => `/i/:linkID${rest ?? ''}`);
}
