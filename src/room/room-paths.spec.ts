import { isRoomPage, loggedPath, roomLinkOf } from './room-paths';

describe('room paths', () => {
  it.each([
    ['/i/abc', 'abc'],
    ['/i/abc/', 'abc'],
    ['/i/abc/reply', 'abc'],
    ['/i/abc/session?x=1', 'abc'],
    ['/v1/invites/getOne?linkID=abc', undefined],
    ['/i/', undefined],
    ['/health', undefined],
    ['/assets/room.js', undefined],
    [undefined, undefined],
  ])('finds the link of %p: %p', (url, link) => {
    expect(roomLinkOf(url)).toBe(link);
  });

  it('tells the page from the JSON API', () => {
    expect([isRoomPage('/i/abc'), isRoomPage('/i/abc/'), isRoomPage('/i/abc?utm=1'), isRoomPage('/i/abc/session'), isRoomPage('/v1/x')]).toEqual([true, true, true, false, false]);
  });

  it('logs paths without the link or the query string', () => {
    expect(loggedPath('/i/AbC123_-/reply?x=secret')).toBe('/i/:linkID/reply');
    expect(loggedPath('/i/AbC123_-')).toBe('/i/:linkID');
    expect(loggedPath('/v1/invites/getOne?linkID=AbC123')).toBe('/v1/invites/getOne');
  });
});
